import type { RequestContext, RouteSpec } from '../../http/types';
import { sendPage, sentParams } from '../../search/listing';
import { listTerms, termListSchema, type TermListInput } from '../../search/termList';
import type { Services } from '../../services';

/** `GET /tags`: the tag list, served from the search index. */
export function tagListRoutes(services: Services): RouteSpec[] {
  return [
    {
      methods: ['GET'],
      path: '/tags',
      resource: 'tags',
      summary: 'List tags',
      description:
        'Event tags in the request language (each in its original language when not translated), ordered by name unless orderby says otherwise; empty ones hidden unless hide_empty=false.',
      access: 'read',
      input: termListSchema('tag'),
      response: 'tags',
      errors: [400, 404, 503],
      handler: async (ctx: RequestContext<TermListInput>) => {
        const caller = { lang: ctx.state.language, principal: ctx.state.principal };
        const result = await listTerms(services, 'tag', ctx.input, caller, sentParams(ctx));
        sendPage(ctx, services.config, 'tag', result);
      },
    },
  ];
}
