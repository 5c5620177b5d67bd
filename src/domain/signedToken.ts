import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A token a client carries and gives back unchanged (a list cursor, a change-feed position):
 * base64url JSON, a dot, and its HMAC-SHA-256 under the server's secret. Readable, not secret;
 * any change to it, or a token signed with another secret, fails `openSignedToken`.
 */
export function signToken(secret: string, purpose: string, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${macOf(secret, purpose, body)}`;
}

/** The payload of a token `signToken` made for `purpose` with `secret`; null for anything else. */
export function openSignedToken(secret: string, purpose: string, token: string): Record<string, unknown> | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = Buffer.from(macOf(secret, purpose, body), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The purpose is signed too: a change token is never accepted as a cursor, nor the reverse. */
function macOf(secret: string, purpose: string, body: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${body}`).digest('base64url');
}
