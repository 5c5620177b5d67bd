import type { RequestContext, RouteSpec } from '../../http/types';
import { PLURAL } from '../../domain/kinds';
import { sendPage } from '../../http/listPage';
import { listPosts, postListSchema, type PostListInput } from '../../search/postList';
import type { Services } from '../../services';

/** `GET /venues` or `GET /organizers`: served from the search index, ordered by name. */
export function postListRoutes(services: Services, kind: 'venue' | 'organizer'): RouteSpec[] {
  const plural = PLURAL[kind];
  return [
    {
      methods: ['GET'],
      path: `/${plural}`,
      resource: plural,
      summary: `List ${plural}`,
      description: `${plural[0]!.toUpperCase()}${plural.slice(1)} in the request language (each in its original language when not translated), ordered by name.`,
      access: 'read',
      input: postListSchema(kind),
      response: plural,
      errors: [400, 404, 503],
      handler: async (ctx: RequestContext<PostListInput>) => {
        const result = await listPosts(services, kind, ctx.input, {
          lang: ctx.state.language,
          principal: ctx.state.principal,
        });
        sendPage(ctx, services.config, kind, result);
      },
    },
  ];
}
