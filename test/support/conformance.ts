import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { request, ROOT, type ApiResponse, type RequestOptions } from './api';

/**
 * Response conformance: checks a response of the running service against what its OpenAPI
 * document (`GET /calendar/events/v1/doc`) says for that method, path and status: the status
 * must be documented, the body must match the schema of its media type, and required headers
 * must be present. Any test may call `assertConforms`, or send through `conforming.*`.
 */

type Json = Record<string, any>;

interface Operation {
  template: string;
  operation: Json;
}

let documentOnce: Promise<Json> | undefined;
let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

/** The service's OpenAPI document (fetched once per test run). */
export function documentedApi(): Promise<Json> {
  documentOnce ??= request('GET', `${ROOT}/doc`).then((res) => {
    if (res.status !== 200) throw new Error(`GET ${ROOT}/doc answered ${res.status}`);
    return res.body as Json;
  });
  return documentOnce;
}

/** `#/components/schemas/X` → `openapi#/definitions/X`, so that ajv resolves refs in a draft-07 container. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string'
          ? v.replace('#/components/schemas/', 'openapi#/definitions/')
          : rewriteRefs(v),
      ]),
    );
  }
  return value;
}

function validatorFor(doc: Json, key: string, schema: unknown): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    addFormats(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema({ $id: 'openapi', definitions: rewriteRefs(doc.components?.schemas ?? {}) });
  }
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema) as object);
    validators.set(key, validate);
  }
  return validate;
}

/** The path under the namespace root (`/fr/calendar/events/v1/events/3?x=1` → `/events/3`). */
export function namespacePath(fullPath: string): string {
  const pathname = new URL(fullPath, 'http://x').pathname;
  const match = /^(?:\/(?:en|fr|de))?\/calendar\/events\/v1(\/.*)?$/.exec(pathname);
  if (!match) throw new Error(`${fullPath} is not under the namespace root`);
  return (match[1] ?? '/').replace(/(.)\/$/, '$1');
}

/** The documented operation of `method` on `fullPath`, preferring the template with most literal segments. */
export function findOperation(doc: Json, method: string, fullPath: string): Operation | undefined {
  const path = namespacePath(fullPath);
  const candidates = Object.keys(doc.paths ?? {})
    .filter((template) => {
      const pattern = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return new RegExp(`^${pattern.join('[^/]+')}$`).test(path);
    })
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  for (const template of candidates) {
    const operation = doc.paths[template][method.toLowerCase()];
    if (operation) return { template, operation };
  }
  return undefined;
}

/** Throws unless `res` (the answer to `method fullPath`) matches the documented response. */
export async function assertConforms(method: string, fullPath: string, res: ApiResponse): Promise<void> {
  const doc = await documentedApi();
  const found = findOperation(doc, method, fullPath);
  if (!found) throw new Error(`${method} ${fullPath}: no documented operation`);
  const where = `${method} ${found.template} → ${res.status}`;
  const responses = found.operation.responses as Json;
  const documented = responses[String(res.status)] ?? (res.status >= 500 ? responses.default : undefined);
  if (!documented)
    throw new Error(`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`);
  for (const [name, declared] of Object.entries((documented.headers ?? {}) as Json)) {
    const header = declared.$ref ? doc.components.headers[String(declared.$ref).split('/').pop()!] : declared;
    if (header.required && !res.headers.has(name)) throw new Error(`${where}: missing documented header ${name}`);
  }
  if (res.status === 304) {
    if (res.body !== undefined && res.body !== '') throw new Error(`${where}: a 304 has no body`);
    return;
  }
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = (documented.content ?? {}) as Json;
  if (!content[mediaType])
    throw new Error(
      `${where}: media type ${mediaType || '(none)'} not documented (${Object.keys(content).join(', ')})`,
    );
  if (mediaType !== 'application/json') return;
  const validate = validatorFor(doc, `${where} ${mediaType}`, content[mediaType].schema ?? {});
  if (!validate(res.body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 10)
      .map((e) => `${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(
      `${where}: body does not match the documented schema:\n  ${errors.join('\n  ')}\nbody: ${JSON.stringify(res.body).slice(0, 2000)}`,
    );
  }
}

/** `request` that also asserts conformance of the response. */
export async function conformingRequest<T = any>(
  method: string,
  fullPath: string,
  body?: unknown,
  options?: RequestOptions,
): Promise<ApiResponse<T>> {
  const res = await request<T>(method, fullPath, body, options);
  await assertConforms(method, fullPath, res);
  return res;
}

/** Like `api` (paths under the namespace root; writes default to the admin key), asserting conformance. */
export const conforming = {
  get: <T = any>(path: string, options?: RequestOptions) =>
    conformingRequest<T>('GET', `${ROOT}${path}`, undefined, options),
  post: <T = any>(path: string, body?: unknown, options: RequestOptions = { key: true }) =>
    conformingRequest<T>('POST', `${ROOT}${path}`, body, options),
  put: <T = any>(path: string, body?: unknown, options: RequestOptions = { key: true }) =>
    conformingRequest<T>('PUT', `${ROOT}${path}`, body, options),
  patch: <T = any>(path: string, body?: unknown, options: RequestOptions = { key: true }) =>
    conformingRequest<T>('PATCH', `${ROOT}${path}`, body, options),
  delete: <T = any>(path: string, options: RequestOptions = { key: true }) =>
    conformingRequest<T>('DELETE', `${ROOT}${path}`, undefined, options),
};
