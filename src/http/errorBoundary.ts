import type { Middleware } from 'koa';
import { isSearchUnreachable } from '../search/client';
import { isStorageUnavailable } from '../storage/mongo';
import {
  CalendarError,
  DependencyUnavailableError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../domain/errors';
import type { Language } from '../../config';
import { pathLanguageOf } from './language';
import type { AppState } from './types';

interface HttpError {
  status?: number;
  statusCode?: number;
  /** formidable (multipart bodies) puts its status here. */
  httpCode?: number;
  type?: string;
  expose?: boolean;
  code?: unknown;
}

/** formidable's code for a file part when none is allowed (`maxFiles: 0`). */
const FILES_NOT_ACCEPTED = 1015;

function fromFramework(err: HttpError & Error): CalendarError | undefined {
  // Elasticsearch's client errors carry a status too: a 4xx from it is a query this service built.
  if ('meta' in err) return undefined;
  if (err.code === FILES_NOT_ACCEPTED && err.httpCode !== undefined) {
    return new UnsupportedMediaTypeError('File uploads are not accepted: send images as URLs.');
  }
  const status = err.status ?? err.statusCode ?? err.httpCode;
  if (status === 413) return new PayloadTooLargeError();
  if (status === 415) return new UnsupportedMediaTypeError();
  // Valid JSON that is not an object (`null`, `"text"`, `12`): refused as an array is, by validate().
  if (status === 400 && /only supports object and array/.test(err.message)) {
    return new ValidationError({ body: 'The request body must be a JSON object.' });
  }
  if (status === 400 && /json/i.test(`${err.type ?? ''} ${err.message}`)) {
    return new CalendarError(400, 'rest_invalid_json', 'The request body is not valid JSON.', { cause: err });
  }
  if (status === 400) return new ValidationError({ body: 'The request body could not be parsed.' });
  return undefined;
}

/** Maps anything thrown below it to a CalendarError; unknown errors become a bare 500. */
export function toCalendarError(err: unknown): CalendarError {
  if (err instanceof CalendarError) return err;
  if (err instanceof Error) {
    if (isStorageUnavailable(err)) return new DependencyUnavailableError('storage', err);
    if (isSearchUnreachable(err)) return new DependencyUnavailableError('search', err);
    const framework = fromFramework(err as HttpError & Error);
    if (framework) return framework;
  }
  return new CalendarError(500, 'rest_internal_error', 'Internal server error.', { cause: err });
}

/** The one place where errors become HTTP responses: the CONTRACT part 9 envelope. */
export function errorBoundary(defaultLanguage: Language): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const err = toCalendarError(thrown);
      if (err.status >= 500) {
        ctx.state.log?.error({ err: err.cause ?? err, code: err.code }, 'request failed');
      }
      ctx.status = err.status;
      // Validators set before the failure belong to the answer that was not made.
      ctx.remove('ETag');
      ctx.remove('Last-Modified');
      if (!ctx.response.get('Content-Language'))
        ctx.set('Content-Language', pathLanguageOf(ctx.path) ?? defaultLanguage);
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      ctx.body = err.envelope();
    }
  };
}
