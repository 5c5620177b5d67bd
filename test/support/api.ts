import { testWorld } from './harness';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  /** API key; `true` means the test administrator's key. */
  key?: string | true;
  headers?: Record<string, string>;
  /** Raw body (sent as is); otherwise `body` is sent as JSON. */
  raw?: string | URLSearchParams;
  contentType?: string;
}

/** Sends a request to the test server; `path` is relative to the host (e.g. `/calendar/events/v1/events`). */
export async function request<T = any>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const world = testWorld();
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.Authorization = `Bearer ${options.key === true ? world.adminKey : options.key}`;
  let payload: string | URLSearchParams | undefined;
  if (options.raw !== undefined) {
    payload = options.raw;
    if (options.contentType) headers['Content-Type'] = options.contentType;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = options.contentType ?? 'application/json';
  }
  const res = await fetch(`${world.baseUrl}${path}`, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export const ROOT = '/calendar/events/v1';

export const api = {
  get: <T = any>(path: string, options?: RequestOptions) => request<T>('GET', `${ROOT}${path}`, undefined, options),
  post: <T = any>(path: string, body?: unknown, options: RequestOptions = { key: true }) =>
    request<T>('POST', `${ROOT}${path}`, body, options),
  put: <T = any>(path: string, body?: unknown, options: RequestOptions = { key: true }) =>
    request<T>('PUT', `${ROOT}${path}`, body, options),
  patch: <T = any>(path: string, body?: unknown, options: RequestOptions = { key: true }) =>
    request<T>('PATCH', `${ROOT}${path}`, body, options),
  delete: <T = any>(path: string, options: RequestOptions = { key: true }) =>
    request<T>('DELETE', `${ROOT}${path}`, undefined, options),
};
