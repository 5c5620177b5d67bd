import type { Config } from '../../../config';
import { NotFoundError } from '../../errors';
import { NAMESPACE } from '../../http/language';
import { Joi, language } from '../../http/params';
import { restRoot } from '../../http/urls';
import type { RequestContext, RouteSpec } from '../../http/types';
import { describeArguments } from './describe';

interface IndexInput {
  namespace: string;
  context: 'view' | 'help';
}

/** `/events/:id` → `/events/(?P<id>\d+)`, as the original namespace index spells routes. */
function patternOf(path: string): string {
  return path.replace(/:id\b/g, '(?P<id>\\d+)').replace(/:slug\b/g, '(?P<slug>[^/]+)');
}

/** Route descriptions depend only on the table, so they are built once per context. */
const describedTables = new WeakMap<RouteSpec[], Map<string, Record<string, unknown>>>();

function describeRoutes(table: RouteSpec[], context: 'view' | 'help'): Record<string, unknown> {
  const cache = describedTables.get(table) ?? new Map<string, Record<string, unknown>>();
  describedTables.set(table, cache);
  const cached = cache.get(context);
  if (cached) return cached;
  const routes: Record<string, unknown> = {};
  for (const route of table) {
    const key = `/${NAMESPACE}${patternOf(route.path)}`.replace(/\/$/, '');
    const entry = (routes[key] ??= {
      namespace: NAMESPACE,
      methods: [],
      endpoints: [],
      _links: { self: route.path },
    }) as {
      methods: string[];
      endpoints: unknown[];
    };
    entry.methods.push(...route.methods);
    entry.endpoints.push({
      methods: route.methods,
      args: describeArguments(route.input),
      ...(context === 'help' ? { summary: route.summary, description: route.description ?? route.summary } : {}),
    });
  }
  cache.set(context, routes);
  return routes;
}

function namespaceIndex(table: RouteSpec[], root: string, context: 'view' | 'help') {
  const routes: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(describeRoutes(table, context))) {
    const described = entry as { _links: { self: string } };
    routes[key] = { ...described, _links: { self: `${root}${described._links.self}` } };
  }
  return { namespace: NAMESPACE, routes, _links: { up: [{ href: root.replace(/calendar\/events\/v1$/, '') }] } };
}

/** `GET /calendar/events/v1`: the namespace index, generated from the route table. */
export function namespaceRoutes(table: RouteSpec[], config: Config): RouteSpec[] {
  return [
    {
      methods: ['GET'],
      path: '',
      resource: 'namespace',
      summary: 'Namespace index: every route with its methods and arguments',
      access: 'read',
      input: Joi.object({
        namespace: Joi.string().default(NAMESPACE).description('Namespace to describe'),
        context: Joi.string().valid('view', 'help').default('view').description('Scope of the description'),
        i18n_language: language(),
      }),
      errors: [404],
      handler: async (ctx: RequestContext<IndexInput>) => {
        if (ctx.input.namespace !== NAMESPACE) {
          throw new NotFoundError('rest_invalid_namespace', `The namespace ${ctx.input.namespace} does not exist.`);
        }
        ctx.body = namespaceIndex(table, restRoot(ctx, config), ctx.input.context);
      },
    },
  ];
}
