/**
 * The service's error hierarchy. Handlers and stores throw these; the error boundary
 * (src/http/errorBoundary.ts) is the only place that turns them into HTTP responses (and
 * src/http/clientErrors.ts for what Node's HTTP parser refuses before the app sees it).
 */
import { withArticle } from './words';
import type { RecordKind } from './kinds';

export interface ErrorOptions {
  cause?: unknown;
  data?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export class CalendarError extends Error {
  override name = 'CalendarError';
  readonly status: number;
  readonly code: string;
  readonly data: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, options: ErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.status = status;
    this.code = code;
    this.data = options.data ?? {};
    this.headers = options.headers ?? {};
  }

  /** The error envelope of CONTRACT part 9: `{code, message, data: {status, ...}}`. */
  envelope(): { code: string; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: { ...this.data, status: this.status } };
  }
}

/** 400 `rest_invalid_param` (or another 400 code) naming every bad parameter in data.params. */
export class ValidationError extends CalendarError {
  override name = 'ValidationError';
  readonly params: Record<string, string>;
  constructor(params: Record<string, string>, code = 'rest_invalid_param', message?: string) {
    const names = Object.keys(params);
    super(400, code, message ?? `Invalid parameter(s): ${names.join(', ')}`, { data: { params } });
    this.params = params;
  }
}

type Results<T extends readonly (() => unknown)[]> = {
  -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> | undefined;
};

/**
 * Runs checks that do not depend on each other, in order, and throws one ValidationError naming
 * every bad parameter they found (CONTRACT part 2), not the first one only. Any other error (403,
 * 503) is thrown as it comes. Returns each check's result.
 */
export async function checkEach<T extends readonly (() => unknown)[]>(checks: T): Promise<Results<T>> {
  const results: unknown[] = [];
  let params: Record<string, string> | null = null;
  for (const check of checks) {
    try {
      results.push(await check());
    } catch (err) {
      if (!(err instanceof ValidationError) || err instanceof MissingParamsError) throw err;
      params = { ...(params ?? {}), ...err.params };
      results.push(undefined);
    }
  }
  if (params) throw new ValidationError(params);
  return results as Results<T>;
}

/**
 * 400 `rest_missing_callback_param`: a required parameter was not sent (CONTRACT part 9, as
 * WordPress names it). data.params still names every bad parameter, missing or not.
 */
export class MissingParamsError extends ValidationError {
  override name = 'MissingParamsError';
  constructor(missing: string[], params: Record<string, string>) {
    super(params, 'rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`);
  }
}

export class BadRequestError extends CalendarError {
  override name = 'BadRequestError';
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(400, code, message, options);
  }
}

export class UnauthorizedError extends CalendarError {
  override name = 'UnauthorizedError';
  constructor(message = 'Authentication is required to do this.') {
    super(401, 'rest_unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="calendar"' } });
  }
}

export class ForbiddenError extends CalendarError {
  override name = 'ForbiddenError';
  constructor(code = 'rest_forbidden', message = 'Sorry, you are not allowed to do that.') {
    super(403, code, message);
  }
}

export class NotFoundError extends CalendarError {
  override name = 'NotFoundError';
  constructor(code: string, message: string) {
    super(404, code, message);
  }
}

export class MethodNotAllowedError extends CalendarError {
  override name = 'MethodNotAllowedError';
  constructor(method: string, allowed: string[]) {
    super(405, 'rest_method_not_allowed', `${method} is not allowed here; this route takes ${allowed.join(', ')}.`, {
      headers: { Allow: allowed.join(', ') },
    });
  }
}

/** 413 `rest_payload_too_large`. */
export class PayloadTooLargeError extends CalendarError {
  override name = 'PayloadTooLargeError';
  constructor() {
    super(413, 'rest_payload_too_large', 'The request body is too large.');
  }
}

/** 408 `rest_request_timeout`: the body was not received in time; the connection is closed after the answer. */
export class RequestTimeoutError extends CalendarError {
  override name = 'RequestTimeoutError';
  constructor(seconds: number) {
    super(408, 'rest_request_timeout', `The request body was not received within ${seconds} s.`, {
      headers: { Connection: 'close' },
    });
  }
}

/** 415 `rest_unsupported_media_type`: a body type (or an upload) this API does not read. */
export class UnsupportedMediaTypeError extends CalendarError {
  override name = 'UnsupportedMediaTypeError';
  constructor(message = 'Unsupported request body type.') {
    super(415, 'rest_unsupported_media_type', message);
  }
}

/**
 * 409 `rest_conflict`: another write got in the way: it changed the record between this write's
 * checks (access, links, dates) and its own write, so those checks may no longer hold, or kept
 * taking the slug this write wanted.
 */
export class ConflictError extends CalendarError {
  override name = 'ConflictError';
  constructor(message: string) {
    super(409, 'rest_conflict', message);
  }
}

export const changedMeanwhile = (kind: RecordKind, id: number): ConflictError =>
  new ConflictError(
    `The ${kind} with ID ${id} changed while this request was checked: read it again and resend the change.`,
  );

export class GoneError extends CalendarError {
  override name = 'GoneError';
  constructor(kind: RecordKind, id: number) {
    super(410, `${kind}-is-in-trash`, `The ${kind} with ID ${id} is already in the trash.`);
  }
}

/** 410 for a list cursor or a change-feed token past its life (EXTENSIONS 16, 17). */
export class ExpiredTokenError extends CalendarError {
  override name = 'ExpiredTokenError';
  constructor(code: 'cursor-expired' | 'changes-token-expired', message: string) {
    super(410, code, message);
  }
}

/** A backing service (Elasticsearch or MongoDB) cannot be reached: 503 with Retry-After. */
export class DependencyUnavailableError extends CalendarError {
  override name = 'DependencyUnavailableError';
  constructor(which: 'search' | 'storage', cause?: unknown) {
    const what = which === 'search' ? 'The search index' : 'The database';
    super(503, `${which}-unavailable`, `${what} is unavailable right now; please retry shortly.`, {
      cause,
      headers: { 'Retry-After': '5' },
    });
  }
}

/** 429 `rest_rate_limited` (ours: CONTRACT part 9 has no 429 row), with Retry-After in seconds. */
export class RateLimitedError extends CalendarError {
  override name = 'RateLimitedError';
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'rest_rate_limited', message, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}

export const notFound = (kind: RecordKind, id: number | string): NotFoundError =>
  new NotFoundError(`rest-${kind}-not-found`, `The ${kind} ${id} was not found.`);

export const invalidKindId = (kind: RecordKind, id: number): BadRequestError =>
  new BadRequestError(`rest-invalid-${kind}-id`, `${id} is not a valid ${kind} ID.`, {
    data: { params: { id: `${id} is not ${withArticle(kind)}` } },
  });
