import type { RequestContext, RouteSpec } from '../../http/types';
import { sendPage } from '../../search/listing';
import { listPosts, postListSchema, type PostListInput } from '../../search/postList';
import type { Services } from '../../services';

/** `GET /venues`: the venue list, served from the search index, ordered by name. */
export function venueListRoutes(services: Services): RouteSpec[] {
  return [
    {
      methods: ['GET'],
      path: '/venues',
      resource: 'venues',
      summary: 'List venues',
      description:
        'Venues in the request language (each in its original language when not translated), ordered by name.',
      access: 'read',
      input: postListSchema('venue'),
      response: 'venues',
      errors: [400, 404, 503],
      handler: async (ctx: RequestContext<PostListInput>) => {
        const result = await listPosts(services, 'venue', ctx.input, {
          lang: ctx.state.language,
          principal: ctx.state.principal,
        });
        sendPage(ctx, services.config, 'venue', result);
      },
    },
  ];
}
