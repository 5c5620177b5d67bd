import type BaseJoi from 'joi';
import { ValidationError } from '../domain/errors';
import { openSignedToken, signToken } from '../domain/signedToken';

/** One kind of token the API hands out and takes back as a parameter (a list cursor, a `/changes` position). */
export interface TokenKind<T> {
  /** Signed with the payload: a token of one kind never opens as another. */
  purpose: string;
  /** The parameter that carries it back: every refusal names it. */
  param: string;
  /** What the caller should send instead, ending the refusal's message. */
  remedy: string;
  /** The payload's shape: a token signed by this API with another shape is refused too. */
  schema: BaseJoi.ObjectSchema<T>;
}

const kinds: TokenKind<unknown>[] = [];

/** Declares a kind of token; the kinds declared tell a token of another kind from a forged one. */
export function tokenKind<T>(kind: TokenKind<T>): TokenKind<T> {
  kinds.push(kind as TokenKind<unknown>);
  return kind;
}

/**
 * The payload of `token`, a token of `kind` signed with `secret`. Altered, signed with another
 * secret, of another kind or of another shape: 400 naming `kind.param`. (Expiry is the caller's
 * to check: a lapsed token is a 410 of its own.)
 */
export function openToken<T>(secret: string, token: string, kind: TokenKind<T>): T {
  const refused = (why: string) => new ValidationError({ [kind.param]: `${kind.param} ${why} (${kind.remedy})` });
  const payload = openSignedToken(secret, kind.purpose, token);
  if (!payload) {
    const other = kinds.find((k) => k !== kind && openSignedToken(secret, k.purpose, token));
    throw refused(other ? `is a token for ${other.param}, not for ${kind.param}` : 'is not a token this API issued');
  }
  const { error, value } = kind.schema.validate(payload, { convert: false });
  if (error) throw refused('is not a token this API issued');
  return value;
}

/** A token of `kind` carrying `payload`, signed with `secret`. */
export const issueToken = <T extends object>(secret: string, kind: TokenKind<T>, payload: T): string =>
  signToken(secret, kind.purpose, payload);
