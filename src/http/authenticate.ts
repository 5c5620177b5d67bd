import type { Middleware } from 'koa';
import type { ApiKeyStore } from '../auth/apiKeys';
import { UnauthorizedError } from '../errors';
import type { Access, AppState, Principal } from './types';

export const ANONYMOUS: Principal = Object.freeze({ keyId: null, userId: 0, role: null });

/** Resolves `Authorization: Bearer <key>` to a principal; a bad key is 401 even on reads. */
export function authenticate(keys: ApiKeyStore): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    ctx.state.principal = ANONYMOUS;
    if (header) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      const record = match ? await keys.verify(match[1]!) : null;
      if (!record) throw new UnauthorizedError('The API key is missing, malformed, unknown or revoked.');
      ctx.state.principal = { keyId: record.id, userId: record.userId, role: record.role };
    }
    await next();
  };
}

/** Route-level access check: writes need a valid key. Roles refine this (CONTRACT part 6). */
export function requireAccess(access: Access): Middleware<AppState> {
  return async (ctx, next) => {
    if (access === 'write' && !ctx.state.principal.keyId) throw new UnauthorizedError();
    await next();
  };
}
