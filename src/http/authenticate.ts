import type { Middleware } from 'koa';
import type { ApiKeyStore } from '../auth/apiKeys';
import { UnauthorizedError } from '../errors';
import type { RateLimits } from './rateLimit';
import type { Access, AppState, Principal } from './types';

export const ANONYMOUS: Principal = Object.freeze({ keyId: null, userId: 0, role: null });

/**
 * Resolves `Authorization: Bearer <key>` to a principal; a bad key is 401 even on reads. An
 * address that failed too often is 429 before its key is even looked at (`limits`).
 */
export function authenticate(
  keys: ApiKeyStore,
  limits?: Pick<RateLimits, 'beforeAuthentication' | 'authenticationFailed'>,
): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    ctx.state.principal = ANONYMOUS;
    if (header) {
      limits?.beforeAuthentication(ctx);
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      const record = match ? await keys.verify(match[1]!) : null;
      if (!record) {
        limits?.authenticationFailed(ctx);
        throw new UnauthorizedError('The API key is missing, malformed, unknown or revoked.');
      }
      ctx.state.principal = { keyId: record.id, userId: record.userId, role: record.role };
    }
    await next();
  };
}

/** Route-level access check: writes need a valid key. Roles and ownership refine this per record (src/auth/policy.ts). */
export function requireAccess(access: Access): Middleware<AppState> {
  return async (ctx, next) => {
    if (access === 'write' && !ctx.state.principal.keyId) throw new UnauthorizedError();
    await next();
  };
}
