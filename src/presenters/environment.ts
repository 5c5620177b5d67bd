import type { Language } from '../../config';
import { inLanguage, languagesOf, type BaseDoc, type StoredRecord } from '../storage/storedRecord';
import { wireDateIn, wireUtc } from '../domain/dates';
import { documentRestUrl, publicUrl, translationUrls } from '../domain/recordUrls';
import type { RecordKind } from '../domain/kinds';

/** What presenters need besides the stored documents: where the API and the site live. */
export interface PresentEnv {
  apiUrl: string;
  siteUrl: string;
  /** Site time zone: `date` / `modified` are shown in it, `*_utc` in UTC. */
  timezone: string;
  /** The language the plain root (no `/fr` prefix) serves: its documents' `rest_url` has no prefix. */
  defaultLanguage: Language;
}

/** Fields every API record carries (CONTRACT part 3). */
// A type, not an interface: records are passed on as Record<string, unknown>.
export type CommonFields = {
  id: number;
  status: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  slug: string;
  url: string;
  rest_url: string;
  author: number;
  i18n_language: Language;
  translations: Partial<Record<Language, string>>;
};

/**
 * An API record in `lang`: the common fields, then the kind's own, from the document shown in
 * `lang` (`own` also gets the record's public `url`). One literal with `own` spread last, not
 * `{ ...common, <own fields> }`: on V8 (Node 20) an object that starts as a spread of a small
 * object and then grows by two dozen properties measured four times slower to build and twice as
 * slow to serialise (an event: ~120 µs instead of ~30).
 */
export function presentRecord<D extends BaseDoc & { date?: Date; status?: string; author?: number }, T extends object>(
  kind: RecordKind,
  record: StoredRecord<D>,
  lang: Language,
  env: PresentEnv,
  own: (doc: D, url: string) => T,
): CommonFields & T {
  const doc = inLanguage(record, lang);
  const published = doc.date ?? doc.createdAt;
  const local = (d: Date) => wireDateIn(d, env.timezone);
  const url = publicUrl(env.siteUrl, kind, doc.slug);
  return {
    id: record.id,
    status: doc.status ?? 'publish',
    date: local(published),
    date_utc: wireUtc(published),
    modified: local(doc.modifiedAt),
    modified_utc: wireUtc(doc.modifiedAt),
    slug: doc.slug,
    url,
    rest_url: documentRestUrl(env, kind, record.id, doc.lang),
    author: doc.author ?? 0,
    i18n_language: doc.lang,
    translations: translationUrls(env.apiUrl, kind, record.id, languagesOf(record)),
    ...own(doc, url),
  };
}

/** `image`: `false` or `{url, id, extension, width, height}` (CONTRACT part 3). */
export function presentImage(
  url: string | null | undefined,
): false | { url: string; id: number; extension: string; width: number | null; height: number | null } {
  if (!url) return false;
  const extension = /\.([a-z0-9]{2,5})(?:[?#]|$)/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? '';
  return { url, id: 0, extension, width: null, height: null };
}
