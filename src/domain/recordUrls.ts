import { LANGUAGES, type Language } from '../../config';
import { PLURAL, type RecordKind } from './kinds';

export const NAMESPACE = 'calendar/events/v1';
export const NAMESPACE_PATH = `/${NAMESPACE}`;

const SITE_PATH: Record<RecordKind, string> = {
  event: 'event',
  venue: 'venue',
  organizer: 'organizer',
  category: 'events/category',
  tag: 'events/tag',
};

/** Canonical `rest_url` of a record (no language prefix). */
export function recordRestUrl(apiUrl: string, kind: RecordKind, id: number, lang?: Language): string {
  const prefix = lang ? `/${lang}` : '';
  return `${apiUrl}${prefix}${NAMESPACE_PATH}/${PLURAL[kind]}/${id}`;
}

/**
 * `rest_url` of a record's document in `lang`: the root that serves that language, so following
 * it gives the same document (the plain root for the default language, `/fr/...` for French).
 */
export function documentRestUrl(
  env: { apiUrl: string; defaultLanguage: Language },
  kind: RecordKind,
  id: number,
  lang: Language,
): string {
  return recordRestUrl(env.apiUrl, kind, id, lang === env.defaultLanguage ? undefined : lang);
}

export function collectionRestUrl(apiUrl: string, kind: RecordKind): string {
  return `${apiUrl}${NAMESPACE_PATH}/${PLURAL[kind]}`;
}

/** Public page of a record on the site: `{site}/event/{slug}/`. */
export function publicUrl(siteUrl: string, kind: RecordKind, slug: string): string {
  return `${siteUrl}/${SITE_PATH[kind]}/${encodeURIComponent(slug)}/`;
}

/** `translations`: language → rest_url, for each language with its own document. */
export function translationUrls(
  apiUrl: string,
  kind: RecordKind,
  id: number,
  langs: Language[],
): Partial<Record<Language, string>> {
  const urls: Partial<Record<Language, string>> = {};
  for (const lang of LANGUAGES) if (langs.includes(lang)) urls[lang] = recordRestUrl(apiUrl, kind, id, lang);
  return urls;
}
