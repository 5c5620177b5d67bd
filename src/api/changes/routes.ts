import { RECORD_KINDS, PLURAL, type RecordKind } from '../../domain/kinds';
import { changesToken, readChangesToken } from '../../http/changesToken';
import { ConcurrencyLimit } from '../../lib/concurrencyLimit';
import { filterList, Joi, language, type LanguageInput } from '../../http/params';
import { inputSchema, route } from '../../http/route';
import type { RequestContext, RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import { changePage } from '../../services/queries/changePages';
import { answeredNotModified, weakEtag } from '../../http/caching';
import { sendJsonOnce } from '../../http/compression';

/**
 * Changes this process presents at once, over the pages being assembled (the others queue): one
 * page of 1,000, or ten of 100. A page of 1,000 is about 5 MB of JSON beside the objects of the
 * part being presented; two at once took the API from 243 to 297 MB in the bench, at the same
 * throughput (presenting is CPU-bound), and 32 at once exhausted its 160 MB heap.
 */
const CHANGES_PRESENTED_AT_ONCE = 1_000;

/** Changes per page by default, and at most (larger values are capped, as list pages are). */
export const CHANGES_DEFAULT_PER_PAGE = 100;
export const CHANGES_MAX_PER_PAGE = 1_000;

interface ChangesInput {
  since?: string;
  kinds?: string[];
  per_page: number;
}

/** `events` or `event` → `event`. */
const KIND_NAMES = new Map<string, RecordKind>(
  RECORD_KINDS.flatMap((kind) => [
    [kind, kind],
    [PLURAL[kind], kind],
  ]),
);

/** `GET /changes` (EXTENSIONS 17): what changed since a token, as this caller may see it. */
export function changesRoutes(services: Services): RouteSpec[] {
  const pages = new ConcurrencyLimit(CHANGES_PRESENTED_AT_ONCE);
  const changes = route({
    methods: ['GET'],
    path: '/changes',
    resource: 'changes',
    summary: 'Records changed since a token (a change feed)',
    description:
      'Each record changed after `since`, once, at its latest state as this caller would read it in its list, oldest change first: ' +
      '`upsert` with the record (as the list shows it, in the request language), or `delete` with `record: null` for a record deleted, ' +
      "trashed, or no longer in this caller's list (unpublished, hidden from listings). A password-protected event stays an upsert, blanked as lists blank it. " +
      'A recurring event comes once, as its record with `occurrence: null` and its `recurrence` lines, once its occurrences are searchable ' +
      '(a minute at most): a copy made of exports then reads them from `GET /events/{id}/occurrences`. ' +
      'Follow `next_since` until `has_more` is false; without `since` the feed starts at the oldest change kept. ' +
      'To keep a copy: export (or walk with `cursor=`), then follow from the `X-Changes-Since` header of that answer. ' +
      'Changes are kept CHANGES_RETENTION (30 days by default): an older token is 410 `changes-token-expired` (copy again with an export). ' +
      'A change appears about a second after its write (CHANGES_SETTLE_MS), so that one committed late is never passed over.',
    access: 'read',
    input: inputSchema<ChangesInput & LanguageInput>()({
      since: Joi.string()
        .allow('')
        .max(1024)
        .example('eyJzZXEiOjQyLCJhdCI6MTc2NDIyMDAwMDAwMH0.Xk2…')
        .description('next_since of the previous page; absent: from the oldest change kept'),
      kinds: filterList()
        .items(Joi.string().valid(...KIND_NAMES.keys()))
        .max(KIND_NAMES.size)
        .example(['events', 'venues'])
        .description('Only changes of these kinds (events, venues, organizers, categories, tags); default: all'),
      per_page: Joi.number()
        .integer()
        .min(1)
        .default(CHANGES_DEFAULT_PER_PAGE)
        .example(1000)
        .description(`Changes per page (at most ${CHANGES_MAX_PER_PAGE}; larger values are capped)`),
      i18n_language: language(),
    }),
    response: 'changes',
    errors: [400, 410, 503],
    handler: answer,
  });
  return [changes];

  async function answer(ctx: RequestContext<ChangesInput>): Promise<void> {
    const since = await readChangesToken(services, ctx.input.since);
    const kinds = ctx.input.kinds && [...new Set(ctx.input.kinds.map((name) => KIND_NAMES.get(name)!))];
    const perPage = Math.min(ctx.input.per_page, CHANGES_MAX_PER_PAGE);
    const page = await changePage(services, { since, kinds, perPage }, ctx.state.language, ctx.state.principal, {
      tokenOf: (seq) => changesToken(services, seq),
      builds: pages,
    });
    // Made of what the page lists, so that the same changes revalidate though next_since's time moves.
    if (answeredNotModified(ctx, { etag: weakEtag([page.digest]) })) return;
    await sendJsonOnce(ctx, page.body);
  }
}
