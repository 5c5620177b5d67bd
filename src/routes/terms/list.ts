import type { RequestContext, RouteSpec } from '../../http/types';
import { PLURAL, type TermKind } from '../../domain/kinds';
import { sendPage, sentParams } from '../../http/listPage';
import { listTerms, termListSchema, type TermListInput } from '../../search/termList';
import type { Services } from '../../services';

/** `GET /categories` or `GET /tags`: served from the search index. */
export function termListRoutes(services: Services, kind: TermKind): RouteSpec[] {
  const plural = PLURAL[kind];
  return [
    {
      methods: ['GET'],
      path: `/${plural}`,
      resource: plural,
      summary: `List ${plural}`,
      description: `Event ${plural} in the request language (each in its original language when not translated), ordered by name unless orderby says otherwise; empty ones hidden unless hide_empty=false.`,
      access: 'read',
      input: termListSchema(kind),
      response: plural,
      errors: [400, 404, 503],
      handler: async (ctx: RequestContext<TermListInput>) => {
        const caller = { lang: ctx.state.language, principal: ctx.state.principal };
        const result = await listTerms(services, kind, ctx.input, caller, sentParams(ctx));
        sendPage(ctx, services.config, kind, result);
      },
    },
  ];
}
