import type { Config } from '../../config';
import { PLURAL, type RecordKind } from '../domain/kinds';
import { sendPage, type ListPage } from '../http/listPage';
import { route, type InputSchema, type TypedRoute } from '../http/route';
import type { RequestContext } from '../http/types';
import { answeredNotModified, weakEtag } from '../http/caching';
import type { Caller, ListProbe } from '../services/queries/eventList';

/**
 * The entity tag of a list page made of `tagParts`, with what else shapes the answer: the request
 * (its parameters, echoed in `rest_url` and `Link`), the public address, the caller.
 */
export function listTag(ctx: RequestContext<object>, config: Pick<Config, 'apiUrl'>, tagParts: unknown[]): string {
  const { language, principal } = ctx.state;
  return weakEtag(['list', ctx.url, config.apiUrl, language, principal.role, principal.userId, ...tagParts]);
}

/**
 * `GET /{plural}`: `list` finds the page (in the search index) for the caller, `sendPage` answers
 * it. A list that knows its page's `tagParts` answers a revalidation (`If-None-Match`) through
 * `probe` before it fetches the records.
 */
export function listRoute<I extends object>(
  config: Pick<Config, 'apiUrl'>,
  kind: RecordKind,
  spec: { description: string; input: InputSchema<I> },
  list: (input: I, caller: Caller, probe?: ListProbe) => Promise<ListPage | null>,
): TypedRoute<I> {
  const plural = PLURAL[kind];
  return route({
    methods: ['GET'],
    path: `/${plural}`,
    resource: plural,
    summary: `List ${plural}`,
    description: spec.description,
    access: 'read',
    input: spec.input,
    response: plural,
    errors: [400, 404, 503],
    handler: async (ctx) => {
      const caller = { lang: ctx.state.language, principal: ctx.state.principal };
      const tagOf = (tagParts: unknown[]) => ({ etag: listTag(ctx, config, tagParts) });
      const probe: ListProbe | undefined = ctx.get('If-None-Match')
        ? (tagParts) => answeredNotModified(ctx, tagOf(tagParts))
        : undefined;
      const page = await list(ctx.input, caller, probe);
      if (page === null) return;
      if (page.tagParts && answeredNotModified(ctx, tagOf(page.tagParts))) return;
      sendPage(ctx, config, kind, page);
    },
  });
}
