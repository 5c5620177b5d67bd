import type { Middleware } from 'koa';
import { LANGUAGES, type Language } from '../../config';
import { NAMESPACE_PATH } from '../domain/recordUrls';
import { ValidationError } from '../domain/errors';
import { requestQuery } from './query';
import type { AppState } from './types';

const PREFIXED = new RegExp(`^/(${LANGUAGES.join('|')})${NAMESPACE_PATH}(/|$)`);

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function pathLanguageOf(path: string): Language | null {
  return (PREFIXED.exec(path)?.[1] as Language | undefined) ?? null;
}

/**
 * The content language: the `i18n_language` parameter, else the path prefix, else the default
 * (CONTRACT part 1). Sets `Content-Language` on every response, errors included.
 */
export function negotiateLanguage(defaultLanguage: Language): Middleware<AppState> {
  return async (ctx, next) => {
    const pathLanguage = pathLanguageOf(ctx.path);
    ctx.state.pathLanguage = pathLanguage;
    ctx.state.language = pathLanguage ?? defaultLanguage;
    ctx.set('Content-Language', ctx.state.language);
    const body = (ctx.request as { body?: Record<string, unknown> }).body;
    const requested =
      (body && typeof body === 'object' ? body.i18n_language : undefined) ?? requestQuery(ctx).i18n_language;
    if (requested !== undefined && requested !== '') {
      if (!isLanguage(requested)) {
        throw new ValidationError({ i18n_language: `i18n_language must be one of ${LANGUAGES.join(', ')}` });
      }
      ctx.state.language = requested;
      ctx.set('Content-Language', requested);
    }
    await next();
  };
}
