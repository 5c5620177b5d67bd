import type { RequestContext, RouteSpec } from '../../http/types';
import { sendPage } from '../../search/listing';
import { listPosts, postListSchema, type PostListInput } from '../../search/postList';
import type { Services } from '../../services';

/** `GET /organizers`: the organizer list, served from the search index, ordered by name. */
export function organizerListRoutes(services: Services): RouteSpec[] {
  return [
    {
      methods: ['GET'],
      path: '/organizers',
      resource: 'organizers',
      summary: 'List organizers',
      description:
        'Organizers in the request language (each in its original language when not translated), ordered by name.',
      access: 'read',
      input: postListSchema('organizer'),
      response: 'organizers',
      errors: [400, 404, 503],
      handler: async (ctx: RequestContext<PostListInput>) => {
        const result = await listPosts(services, 'organizer', ctx.input, {
          lang: ctx.state.language,
          principal: ctx.state.principal,
        });
        sendPage(ctx, services.config, 'organizer', result);
      },
    },
  ];
}
