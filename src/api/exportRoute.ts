import { Readable } from 'node:stream';
import { route, type InputSchema } from '../http/route';
import { PLURAL, type RecordKind } from '../domain/kinds';
import { CHANGES_SINCE_HEADER, changesTokenForSnapshot } from '../http/changesToken';
import type { RouteSpec } from '../http/types';
import { closeWalk, openWalk, walkPage, type WalkPage } from '../services/queries/cursorWalk';
import type { Services } from '../services/container';
import type { ListQueryOf } from './listRoute';

/** Matches read from the snapshot per search: large enough to stream fast, small enough to stay flat. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * `GET /{plural}/export` (EXTENSIONS 16): every match of the list's filters as NDJSON, one record
 * a line as the list shows it, from one snapshot of the index. Pages are read as the client
 * reads: `Readable.from` asks for the next page only once the socket has drained what was
 * written, so memory stays one page whatever the count. Needs a key of any role (401 without),
 * and shows what that key's list would. The first page is read before answering, so a bad
 * filter or an unreachable index is still a JSON error; a failure later cuts the stream short
 * (no final newline-terminated line is then missing: the client sees the connection end early).
 */
export function exportRoute<I extends object>(
  services: Services,
  kind: RecordKind,
  input: InputSchema<I>,
  queryOf: ListQueryOf<I>,
): RouteSpec {
  const plural = PLURAL[kind];
  return route({
    methods: ['GET'],
    path: `/${plural}/export`,
    resource: plural,
    summary: `Export every matching ${kind} as NDJSON`,
    description:
      `Every ${kind} the list's filters match (no paging: per_page, page and cursor do not apply), as application/x-ndjson, ` +
      'one record a line exactly as the list shows it, in the list order, from one snapshot; streamed. Needs an API key (any role) and ' +
      "shows what that key's list would.",
    access: 'key',
    input,
    response: 'ndjson',
    errors: [400, 401, 503],
    handler: async (ctx) => {
      const listed = await queryOf(ctx.input, {
        lang: ctx.state.language,
        principal: ctx.state.principal,
        now: new Date(),
      });
      // Records only: no facets, histogram or map tiles computed again for every page.
      const { aggs: _aggs, ...request } = listed.request;
      const query = { ...listed, request, extras: undefined };
      ctx.state.limits.started(ctx);
      // Taken before the snapshot: following /changes from it replays whatever the snapshot may lack.
      const changesSince = await changesTokenForSnapshot(services);
      const first = await walkPage(services, query, await openWalk(services, query), EXPORT_PAGE_SIZE, {
        countTotal: false,
      });
      async function* lines(): AsyncGenerator<string> {
        let page: WalkPage = first;
        try {
          for (;;) {
            if (page.items.length > 0) yield page.items.map((item) => `${JSON.stringify(item)}\n`).join('');
            if (!page.next) return;
            page = await walkPage(services, query, page.next, EXPORT_PAGE_SIZE, { countTotal: false });
          }
        } finally {
          // Done, or a client gone mid-stream: an export's snapshot is given back now, not after 5 minutes.
          await closeWalk(services, page.pit);
        }
      }
      ctx.set(CHANGES_SINCE_HEADER, changesSince);
      ctx.type = 'application/x-ndjson';
      ctx.body = Readable.from(lines(), { objectMode: false, highWaterMark: 1 });
    },
  });
}
