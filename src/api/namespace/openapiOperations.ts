import type { Method, RouteSpec } from '../../http/types';
import { describeSchema, inputKeyOf, pathInputKeys, pathParamsOf, type JoiDescription } from './describe';
import { joiToSchema, objectSchema, sentences, type Schema } from './openapiParams';
import { kindOf, responsesOf } from './openapiResponses';
import { fillLabel, type DocTexts, type SummaryKey } from './openapiText';

const WRITES: Method[] = ['POST', 'PUT', 'PATCH'];
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

/** `/events/:id` → `/events/{id}`; the namespace root itself is `/`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}') || '/';
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `GET /events/by-slug/:slug` → `getEventsBySlug`, `POST /events/:id` → `postEventsById`. */
export function operationIdOf(route: RouteSpec, method: Method): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment.startsWith(':')
        ? segment === ':slug'
          ? ''
          : `By${pascal(segment.slice(1))}`
        : segment.split(/[-_]/).map(pascal).join(''),
    );
  return `${method.toLowerCase()}${words.join('') || 'Index'}`;
}

/** Which generated summary an operation gets, from the shape of its path (null: keep the route's own). */
function summaryKeyOf(route: RouteSpec, method: Method): SummaryKey | null {
  if (route.path === '') return 'namespaceIndex';
  if (route.path === '/doc') return 'document';
  if (/^\/doc\/assets\/:\w+$/.test(route.path)) return 'documentAsset';
  if (!kindOf(route)) return null;
  if (route.path.endsWith('.ics')) return /:\w+/.test(route.path) ? 'feedById' : 'feed';
  const addressed = /\/by-slug\/:\w+$/.test(route.path) ? 'BySlug' : /^\/[^/]+\/:\w+$/.test(route.path) ? 'ById' : null;
  if (/^\/[^/:]+$/.test(route.path)) return method === 'GET' ? 'list' : method === 'POST' ? 'create' : null;
  if (!addressed) return null;
  if (method === 'GET') return `read${addressed}`;
  if (WRITES.includes(method)) return `update${addressed}`;
  const forceable = 'force' in (describeInput(route).keys ?? {});
  return forceable ? `trash${addressed}` : `delete${addressed}`;
}

/** The operation summary in the document's language: generated for the known route shapes. */
export function summaryOf(route: RouteSpec, method: Method, t: DocTexts): string {
  const key = summaryKeyOf(route, method);
  if (!key) return route.summary;
  const kind = kindOf(route);
  const label = (kind && t.labels[kind.kind]) ?? { a: route.resource, plural: route.resource };
  return fillLabel(t.summaries[key], label);
}

function parameter(name: string, location: 'path' | 'query', d: JoiDescription, t: DocTexts, note?: string): Schema {
  const schema = joiToSchema(d, t);
  const description = sentences(schema.description as string | undefined, note);
  delete schema.description;
  const param: Schema = {
    name,
    in: location,
    required: location === 'path' || d.flags?.presence === 'required',
    schema,
  };
  if (description) param.description = description;
  if (schema.type === 'array') Object.assign(param, { style: 'form', explode: false });
  else if (schema.type === 'object') Object.assign(param, { style: 'deepObject', explode: true });
  return param;
}

export const describeInput = (route: RouteSpec): JoiDescription => describeSchema(route.input);

/** Registers a request-body schema, reusing an identical one already registered (ID and slug routes share theirs). */
function bodyRef(name: string, schema: Schema, bodies: Record<string, Schema>): string {
  const text = JSON.stringify(schema);
  const existing = Object.keys(bodies).find((key) => JSON.stringify(bodies[key]) === text);
  if (!existing) bodies[name] = schema;
  return `#/components/schemas/${existing ?? name}`;
}

/** The operation of one method of a route; `bodies` collects the shared request-body schemas. */
export function operationOf(route: RouteSpec, method: Method, t: DocTexts, bodies: Record<string, Schema>): Schema {
  const keys = describeInput(route).keys ?? {};
  const pathParams = pathParamsOf(route.path);
  const inPath = pathInputKeys(route);
  const fields = Object.entries(keys).filter(([name]) => !inPath.has(name));
  const writes = WRITES.includes(method);
  const parameters: Schema[] = pathParams.map((name) =>
    parameter(name, 'path', keys[inputKeyOf(route, name)] ?? { type: 'string' }, t),
  );
  let body: string | undefined;
  if (writes) {
    const name = `${pascal(operationIdOf(route, route.methods.find((m) => WRITES.includes(m)) ?? method))}Input`;
    const schema = objectSchema({ type: 'object', keys: Object.fromEntries(fields) }, t);
    body = bodyRef(name, { ...schema, description: t.bodyDescription }, bodies);
  }
  for (const [name, d] of fields) {
    if (!body) {
      parameters.push(parameter(name, 'query', d, t));
      continue;
    }
    // The same field in the query string: its schema is the body's, by reference.
    const param = parameter(name, 'query', { ...d, flags: { ...d.flags, presence: 'optional' } }, t, t.alsoInQuery);
    param.schema = { $ref: `${body}/properties/${name}` };
    parameters.push(param);
  }
  if (route.access === 'write' && kindOf(route))
    parameters.push({
      name: 'Prefer',
      in: 'header',
      required: false,
      description: t.headers.prefer,
      schema: { type: 'string', enum: ['wait-for-index'] },
    });
  const operation: Schema = {
    operationId: operationIdOf(route, method),
    tags: [route.resource],
    summary: summaryOf(route, method, t),
    description: [route.description, t.access[route.access], writes ? t.writeForms : undefined]
      .filter(Boolean)
      .join('\n\n'),
    parameters,
  };
  if (body) {
    const content = Object.fromEntries(BODY_TYPES.map((type) => [type, { schema: { $ref: body } }]));
    operation.requestBody = { required: false, description: t.writeForms, content };
  }
  operation.responses = responsesOf(route, method, t);
  operation.security = route.access === 'read' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }];
  return operation;
}
