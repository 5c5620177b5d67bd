import { PLURAL } from '../../domain/kinds';
import type { RouteSpec } from '../../http/types';
import { listPosts, postListSchema, type PostListInput } from '../../search/postList';
import type { Services } from '../../services';
import { listRoute } from '../listRoute';

/** `GET /venues` or `GET /organizers`: ordered by name. */
export function postListRoutes(services: Services, kind: 'venue' | 'organizer'): RouteSpec[] {
  const plural = PLURAL[kind];
  const description = `${plural[0]!.toUpperCase()}${plural.slice(1)} in the request language (each in its original language when not translated), ordered by name.`;
  return [
    listRoute<PostListInput>(services.config, kind, { description, input: postListSchema(kind) }, (ctx) =>
      listPosts(services, kind, ctx.input, { lang: ctx.state.language, principal: ctx.state.principal }),
    ),
  ];
}
