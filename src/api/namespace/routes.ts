import type { Config } from '../../../config';
import { NotFoundError } from '../../domain/errors';
import { NAMESPACE } from '../../domain/recordUrls';
import { Joi, language, type LanguageInput } from '../../http/params';
import { inputSchema, route } from '../../http/route';
import { restRoot } from '../../http/restRoot';
import type { RouteSpec } from '../../http/types';
import { describeArguments, inputKeyOf, pathParamsOf } from './describe';

interface IndexInput extends LanguageInput {
  namespace: string;
  context: 'view' | 'help';
}

/**
 * `/events/:id` → `/events/(?P<id>\d+)`, as the original namespace index spells routes; each group
 * is named after the argument that carries it (`lookup_slug`: `slug` is the payload's new slug).
 */
function patternOf(route: RouteSpec): string {
  return route.path
    .replace(/:id\b/g, `(?P<${inputKeyOf(route, 'id')}>\\d+)`)
    .replace(/:(\w+)/g, (_, param: string) => `(?P<${inputKeyOf(route, param)}>[^/]+)`);
}

interface DescribedRoute {
  path: string;
  entry: { namespace: string; methods: string[]; endpoints: unknown[] };
}

/** Route descriptions depend only on the table, so they are built once per context. */
const describedTables = new WeakMap<RouteSpec[], Map<string, Map<string, DescribedRoute>>>();

function describeRoutes(table: RouteSpec[], context: 'view' | 'help'): Map<string, DescribedRoute> {
  const cache = describedTables.get(table) ?? new Map<string, Map<string, DescribedRoute>>();
  describedTables.set(table, cache);
  const cached = cache.get(context);
  if (cached) return cached;
  const routes = new Map<string, DescribedRoute>();
  for (const route of table) {
    const key = `/${NAMESPACE}${patternOf(route)}`.replace(/\/$/, '');
    let described = routes.get(key);
    if (!described) {
      described = { path: route.path, entry: { namespace: NAMESPACE, methods: [], endpoints: [] } };
      routes.set(key, described);
    }
    described.entry.methods.push(...route.methods);
    described.entry.endpoints.push({
      methods: route.methods,
      args: describeArguments(route.input),
      ...(context === 'help' ? { summary: route.summary, description: route.description ?? route.summary } : {}),
    });
  }
  cache.set(context, routes);
  return routes;
}

/** Routes without path parameters link to themselves; the index links to the OpenAPI document. */
function namespaceIndex(table: RouteSpec[], root: string, context: 'view' | 'help') {
  const routes: Record<string, unknown> = {};
  for (const [key, { path, entry }] of describeRoutes(table, context)) {
    routes[key] = pathParamsOf(path).length > 0 ? entry : { ...entry, _links: { self: `${root}${path}` } };
  }
  return { namespace: NAMESPACE, routes, _links: { help: [{ href: `${root}/doc` }] } };
}

/** `GET /calendar/events/v1`: the namespace index, generated from the route table. */
export function namespaceRoutes(table: RouteSpec[], config: Config): RouteSpec[] {
  return [
    route({
      methods: ['GET'],
      path: '',
      resource: 'namespace',
      response: 'namespace',
      summary: 'Namespace index: every route with its methods and arguments',
      access: 'read',
      input: inputSchema<IndexInput>()({
        namespace: Joi.string().allow('').default(NAMESPACE).description('Namespace to describe'),
        context: Joi.string().valid('view', 'help').default('view').description('Scope of the description'),
        i18n_language: language(),
      }),
      errors: [404],
      handler: async (ctx) => {
        if (ctx.input.namespace !== NAMESPACE) {
          throw new NotFoundError('rest_invalid_namespace', `The namespace "${ctx.input.namespace}" does not exist.`);
        }
        ctx.body = namespaceIndex(table, restRoot(ctx, config), ctx.input.context);
      },
    }),
  ];
}
