import { PLURAL, type RecordKind } from '../domain/kinds';
import { CHANGES_SINCE_HEADER, changesTokenForSnapshot } from '../http/changesToken';
import { bindingOf, cursorParam, issueCursor, readCursor, refusePageWithCursor } from '../http/cursor';
import { sendCursorPage, sendPage } from '../http/listPage';
import { answeredNotModified, weakEtag } from '../http/caching';
import { route, withKeys, type InputSchema, type TypedRoute } from '../http/route';
import type { RequestContext } from '../http/types';
import { openWalk, walkPage } from '../services/queries/cursorWalk';
import type { Caller } from '../services/queries/eventList';
import type { Config } from '../../config';
import { MAX_PER_PAGE, pageOf, pageRequest, type ListProbe, type ListQuery } from '../services/queries/listing';
import type { Services } from '../services/container';
import { tokenSecretOf } from '../storage/tokenSecret';

/** Builds a list's search for the caller from its validated filters. */
export type ListQueryOf<I> = (input: I, caller: Caller) => Promise<ListQuery>;

interface Paged {
  page: number;
  per_page: number;
}

/**
 * The entity tag of a list page made of `tagParts`, with what else shapes the answer: the request
 * (its parameters, echoed in `rest_url` and `Link`), the public address, the caller.
 */
export function listTag(ctx: RequestContext<object>, config: Pick<Config, 'apiUrl'>, tagParts: unknown[]): string {
  const { language, principal } = ctx.state;
  return weakEtag(['list', ctx.url, config.apiUrl, language, principal.role, principal.userId, ...tagParts]);
}

/**
 * `GET /{plural}`: numbered pages (`page`, at most 10,000 results deep), or a cursor walk
 * (`cursor`, EXTENSIONS 16) over one snapshot of the list, as deep as it goes. A numbered page of
 * a list that can tag it from its hits answers a revalidation (`If-None-Match`) before it fetches
 * the records.
 */
export function listRoute<I extends Paged>(
  services: Services,
  kind: RecordKind,
  spec: { description: string; input: InputSchema<I> },
  queryOf: ListQueryOf<I>,
): TypedRoute<I & { cursor?: string }> {
  const plural = PLURAL[kind];
  const { config } = services;
  return route({
    methods: ['GET'],
    path: `/${plural}`,
    resource: plural,
    summary: `List ${plural}`,
    description: spec.description,
    access: 'read',
    input: withKeys<I, { cursor?: string }>(spec.input, { cursor: cursorParam() }),
    response: plural,
    errors: [400, 404, 410, 503],
    handler: async (ctx) => {
      const { cursor } = ctx.input;
      if (cursor === undefined) {
        const query = await queryOf(ctx.input, { lang: ctx.state.language, principal: ctx.state.principal });
        const tagOf = (tagParts: unknown[]) => ({ etag: listTag(ctx, config, tagParts) });
        const probe: ListProbe | undefined = ctx.get('If-None-Match')
          ? (tagParts) => answeredNotModified(ctx, tagOf(tagParts))
          : undefined;
        const page = await pageOf(services, query, pageRequest(ctx.input.page, ctx.input.per_page), probe);
        if (page === null) return;
        if (page.tagParts && answeredNotModified(ctx, tagOf(page.tagParts))) return;
        sendPage(ctx, config, kind, page);
        return;
      }
      await sendWalkPage(services, kind, queryOf, ctx, cursor);
    },
  });
}

/**
 * A page of a cursor walk (EXTENSIONS 16) over one snapshot of the list `queryOf` builds: the
 * first for an empty cursor, else the one the cursor points at. `path`: the list's own.
 */
export async function sendWalkPage<I extends Paged>(
  services: Services,
  kind: RecordKind,
  queryOf: ListQueryOf<I>,
  ctx: RequestContext<I>,
  cursor: string,
  path = `/${PLURAL[kind]}`,
): Promise<void> {
  const { config } = services;
  refusePageWithCursor(ctx);
  const { principal } = ctx.state;
  const secret = await tokenSecretOf(services.db, config.integration.tokenSecret);
  const binding = bindingOf(kind, ctx.state.language, principal, ctx.input as Record<string, unknown>);
  const resumed = cursor === '' ? null : readCursor(secret, binding, cursor);
  const now = resumed?.now ?? new Date();
  const query = await queryOf(ctx.input, { lang: ctx.state.language, principal, now });
  const perPage = Math.min(ctx.input.per_page, MAX_PER_PAGE);
  if (!resumed) {
    ctx.state.limits.started(ctx);
    // A walk's first page says where to follow /changes from once the copy it makes is complete.
    ctx.set(CHANGES_SINCE_HEADER, await changesTokenForSnapshot(services));
  }
  const position = resumed?.position ?? (await openWalk(services, query));
  const page = await walkPage(services, query, position, perPage, { tagged: true });
  const next = page.next && issueCursor(secret, binding, page.next, now);
  // Tagged like a numbered page (by what it shows, for a list that cannot tag it from its
  // hits), with where the walk goes on: the cursor it hands on, signed with a new expiry on
  // every answer, would change a tag of its body every time. A 304 leaves the client the
  // cursor it was given with the page, which expires 5 minutes after it was issued.
  const tagParts = [...(page.tagParts ?? [page.items, page.total]), page.next];
  if (answeredNotModified(ctx, { etag: listTag(ctx, config, tagParts) })) return;
  sendCursorPage(ctx, config, kind, { items: page.items, total: page.total, perPage, next, extras: page.extras }, path);
}
