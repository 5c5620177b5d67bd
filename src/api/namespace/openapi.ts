import type { Language } from '../../../config';
import type { RouteSpec } from '../../http/types';
import { GUIDES } from './openapiGuide';
import { openApiPath, operationOf } from './openapiOperations';
import { sharedHeaders } from './openapiResponses';
import type { Schema } from './openapiParams';
import { RESPONSE_SCHEMAS } from './openapiSchemas';
import { DOC_TEXTS } from './openapiText';

/** Version of this document: 1.x for the v1 namespace; the minor grows with additive changes. */
export const DOCUMENT_VERSION = '1.0.0';

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Schema>>;
  components: Record<string, unknown>;
  tags: { name: string; description?: string }[];
  externalDocs?: { description: string; url: string };
}

type RootlessDocument = Omit<OpenApiDocument, 'servers'>;

/** Every route and method of the table as OpenAPI 3.0.3, in `language`, without the request-specific parts. */
function generate(table: RouteSpec[], language: Language): RootlessDocument {
  const t = DOC_TEXTS[language];
  const paths: Record<string, Record<string, Schema>> = {};
  const bodies: Record<string, Schema> = {};
  const tags: string[] = [];
  for (const route of table) {
    const item = (paths[openApiPath(route.path)] ??= {});
    for (const method of route.methods) item[method.toLowerCase()] = operationOf(route, method, t, bodies);
    if (!tags.includes(route.resource)) tags.push(route.resource);
  }
  return {
    openapi: '3.0.3',
    info: { title: t.title, version: DOCUMENT_VERSION, description: GUIDES[language] },
    tags: tags.map((name) => ({ name, ...(t.tags[name] ? { description: t.tags[name] } : {}) })),
    paths,
    components: {
      schemas: { ...RESPONSE_SCHEMAS, ...bodies },
      headers: sharedHeaders(t),
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: t.bearer } },
    },
  };
}

// The table is complete once the app serves requests; one generation per language is enough.
const cache = new WeakMap<RouteSpec[], Map<string, RootlessDocument>>();

/**
 * The OpenAPI document of the route table, in `language`, with `servers[0].url` = `root`, the
 * REST root the request came through (CONTRACT part 10).
 */
export function openApiDocument(table: RouteSpec[], root: string, language: Language): OpenApiDocument {
  const perTable = cache.get(table) ?? new Map<string, RootlessDocument>();
  cache.set(table, perTable);
  const key = `${language}:${table.length}`;
  let doc = perTable.get(key);
  if (!doc) {
    doc = generate(table, language);
    perTable.set(key, doc);
  }
  const t = DOC_TEXTS[language];
  return {
    ...doc,
    info: { ...doc.info, description: doc.info.description.replaceAll('{root}', root) },
    servers: [{ url: root }],
    externalDocs: { description: t.referencePage, url: `${root}/doc?format=html` },
  };
}
