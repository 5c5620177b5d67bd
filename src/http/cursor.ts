import { createHash } from 'node:crypto';
import type { Language } from '../../config';
import { ValidationError } from '../domain/errors';
import { cursorExpired, WALK_KEEP_ALIVE_MS, type WalkPosition } from '../services/queries/cursorWalk';
import { Joi } from './params';
import { ONE_OFF } from './validate';
import { requestQuery } from './query';
import type { AppContext } from './types';
import { issueToken, openToken, tokenKind } from './tokens';
import type { Principal } from '../domain/principal';

/** Parameters that move along a list rather than filter it: they may change from page to page. */
const PAGING = new Set(['cursor', 'page', 'per_page', 'i18n_language']);

export const cursorParam = (
  description = 'Walks the whole list in one snapshot, past any depth: empty to start, then each answer’s next_cursor (null at the end). ' +
    'A cursor keeps 5 minutes after its page (then 410 cursor-expired), works only for the caller, language and filters it was issued for (400 otherwise), and excludes page',
) => Joi.string().allow('').max(4096).meta(ONE_OFF).example('').description(description);

/** What a cursor is bound to: the list (a record kind, or another list's name), the language, the caller and the filters it walks. */
export interface CursorBinding {
  kind: string;
  lang: Language;
  caller: string;
  filters: string;
}

interface CursorPayload {
  k: string;
  l: Language;
  c: string;
  f: string;
  p: string;
  a: WalkPosition['after'];
  n: number;
  t: number;
  /** The walk's "now" (ms): relative filters (the default date window) stay as on its first page. */
  at: number;
  /** When the snapshot lapses (ms), as Elasticsearch keeps it. */
  x: number;
}

export const CURSOR_TOKEN = tokenKind<CursorPayload>({
  purpose: 'list-cursor',
  param: 'cursor',
  remedy: "send the last page's next_cursor as given, or an empty cursor to start again",
  schema: Joi.object<CursorPayload>({
    k: Joi.string().required(),
    l: Joi.string().required(),
    c: Joi.string().allow('').required(),
    f: Joi.string().required(),
    p: Joi.string().allow('').required(),
    a: Joi.array().allow(null).required(),
    n: Joi.number().required(),
    t: Joi.number().required(),
    at: Joi.number().required(),
    x: Joi.number().required(),
  }),
});

/** A walk's request names no page (EXTENSIONS 16): else 400 naming `page`. */
export function refusePageWithCursor(ctx: AppContext): void {
  if ('page' in requestQuery(ctx)) throw new ValidationError({ page: 'page cannot be sent with cursor' });
}

/** A cursor's binding for this request. */
export function bindingOf(
  kind: string,
  lang: Language,
  principal: Principal,
  input: Record<string, unknown>,
): CursorBinding {
  const filters = Object.keys(input)
    .filter((name) => !PAGING.has(name) && input[name] !== undefined)
    .sort()
    .map((name) => [name, input[name]]);
  const digest = createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 22);
  return { kind, lang, caller: principal.keyId ?? '', filters: digest };
}

export function issueCursor(secret: string, binding: CursorBinding, position: WalkPosition, now: Date): string {
  const payload: CursorPayload = {
    k: binding.kind,
    l: binding.lang,
    c: binding.caller,
    f: binding.filters,
    p: position.pit,
    a: position.after,
    n: position.seen,
    t: position.total,
    at: now.getTime(),
    x: Date.now() + WALK_KEEP_ALIVE_MS,
  };
  return issueToken(secret, CURSOR_TOKEN, payload);
}

const refused = (why: string) => new ValidationError({ cursor: why });

/**
 * Where the walk of `token` stands, and its "now". A cursor that was altered, signed elsewhere,
 * or issued for another list, language, filter set or caller is a 400 naming `cursor`: a cursor
 * never shows a caller more than their own list would (an administrator's cursor replayed
 * anonymously is refused, not narrowed). A lapsed one is 410 `cursor-expired`.
 */
export function readCursor(
  secret: string,
  binding: CursorBinding,
  token: string,
): { position: WalkPosition; now: Date } {
  const payload = openToken(secret, token, CURSOR_TOKEN);
  if (payload.k !== binding.kind || payload.l !== binding.lang) {
    throw refused(`cursor belongs to another list (${payload.k} in ${payload.l})`);
  }
  if (payload.c !== binding.caller) throw refused('cursor was issued to another caller');
  if (payload.f !== binding.filters) throw refused('cursor was issued for other filters: send the same ones');
  if (payload.x < Date.now()) throw cursorExpired();
  return {
    position: { pit: payload.p, after: payload.a, seen: payload.n, total: payload.t },
    now: new Date(payload.at),
  };
}
