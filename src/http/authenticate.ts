import type { Middleware } from 'koa';
import type { ApiKeyStore } from '../storage/apiKeys';
import { UnauthorizedError } from '../domain/errors';
import { NO_REQUEST_LIMITS, type RequestLimits } from './rateLimit';
import type { Access, AppState } from './types';
import type { Principal } from '../domain/principal';

/** How many times the request carries header `name` (lower case). */
function headerCount(rawHeaders: string[], name: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) count++;
  return count;
}

export const ANONYMOUS: Principal = Object.freeze({ keyId: null, userId: 0, role: null });

/**
 * Resolves `Authorization: Bearer <key>` to a principal; a bad key is 401 even on reads. An
 * address that failed too often is 429 before its key is even looked at (`limits`, which routes
 * checking another secret, an event password, or starting a walk find in `ctx.state.limits`).
 */
export function authenticate(keys: ApiKeyStore, limits: RequestLimits = NO_REQUEST_LIMITS): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    ctx.state.principal = ANONYMOUS;
    ctx.state.limits = limits;
    if (header) {
      // What a key unlocks is the caller's alone: no shared cache may keep it (event passwords: routes/events).
      ctx.set('Cache-Control', 'private, no-store');
      // Node keeps the first of repeated headers; a proxy might keep another: refuse to guess.
      if (headerCount(ctx.req.rawHeaders, 'authorization') > 1)
        throw new UnauthorizedError('Send one Authorization header: this request has several.');
      const refund = limits.attempt(ctx);
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      let record;
      try {
        record = match ? await keys.verify(match[1]!) : null;
      } catch (err) {
        refund(); // MongoDB did not answer (503): no failure of the caller's
        throw err;
      }
      if (!record) throw new UnauthorizedError('The API key is missing, malformed, unknown or revoked.');
      refund();
      ctx.state.principal = { keyId: record.id, userId: record.userId, role: record.role };
    }
    await next();
  };
}

/** Route-level access check: writes need a valid key. Roles and ownership refine this per record (src/domain/policy.ts). */
export function requireAccess(access: Access): Middleware<AppState> {
  return async (ctx, next) => {
    if (access !== 'read' && !ctx.state.principal.keyId) throw new UnauthorizedError();
    await next();
  };
}
