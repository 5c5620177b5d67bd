import qs from 'qs';
import { ValidationError } from '../domain/errors';
import type { AppContext } from './types';

/** A percent-encoded value that is no UTF-8 once decoded (`Caf%E9`, Latin-1). */
class NotUtf8Error extends RangeError {}

/**
 * qs's decoding, stricter and kinder: percent-escapes that decode to no UTF-8 are refused
 * instead of kept as typed (`Caf%E9` stored literally), and a stray `%` (`100% off`) stays a
 * percent sign instead of leaving the whole value undecoded.
 */
function decodeStrictly(text: string): string {
  const plain = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plain.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
  } catch {
    throw new NotUtf8Error(`${JSON.stringify(text.slice(0, 60))} is not UTF-8 once percent-decoded`);
  }
}

/**
 * `a[]=1&a[]=2` and `a=1,2` lists, `a[b]=` objects three deep, for query strings and form bodies
 * alike; past a limit the request is refused (400), never silently cut short.
 */
export const QS_OPTIONS = {
  depth: 3,
  arrayLimit: 100,
  parameterLimit: 1000,
  throwOnLimitExceeded: true,
  decoder: decodeStrictly,
} as const;

/** The 400 for a query string or form body qs refused: past QS_OPTIONS' limits, or no UTF-8. */
export function unreadableParams(err: unknown, where: 'query' | 'body'): unknown {
  const refused = err instanceof NotUtf8Error || (err instanceof RangeError && /limit exceeded/i.test(err.message));
  return refused ? new ValidationError({ [where]: (err as Error).message }) : err;
}

const parsed = new WeakMap<object, Record<string, unknown>>();

/**
 * The request's query string, parsed once per request (the language, the validator and the
 * `rest_url` echo all read it).
 */
export function requestQuery(ctx: Pick<AppContext, 'querystring' | 'request'>): Record<string, unknown> {
  let query = parsed.get(ctx.request);
  if (!query) {
    try {
      query = qs.parse(ctx.querystring, QS_OPTIONS) as Record<string, unknown>;
    } catch (err) {
      throw unreadableParams(err, 'query');
    }
    parsed.set(ctx.request, query);
  }
  return query;
}
