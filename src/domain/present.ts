import { DateTime } from 'luxon';
import type { Language } from '../../config';
import { inLanguage, languagesOf, type BaseDoc, type StoredRecord } from '../storage/recordStore';
import { toWire } from './dates';
import { publicUrl, recordRestUrl, translationUrls } from './urls';

/** What presenters need besides the stored documents: where the API and the site live. */
export interface PresentEnv {
  apiUrl: string;
  siteUrl: string;
  /** Site time zone: `date` / `modified` are shown in it, `*_utc` in UTC. */
  timezone: string;
}

/** Fields every API record carries (CONTRACT part 3), from the document shown in `lang`. */
export function commonFields<D extends BaseDoc & { date?: Date; status?: string; author?: number }>(
  kind: string,
  record: StoredRecord<D>,
  lang: Language,
  env: PresentEnv,
) {
  const doc = inLanguage(record, lang);
  const published = doc.date ?? doc.createdAt;
  const local = (d: Date) => toWire(DateTime.fromJSDate(d, { zone: env.timezone }));
  const utc = (d: Date) => toWire(DateTime.fromJSDate(d, { zone: 'UTC' }));
  return {
    doc,
    fields: {
      id: record.id,
      status: doc.status ?? 'publish',
      date: local(published),
      date_utc: utc(published),
      modified: local(doc.modifiedAt),
      modified_utc: utc(doc.modifiedAt),
      slug: doc.slug,
      url: publicUrl(env.siteUrl, kind, doc.slug),
      rest_url: recordRestUrl(env.apiUrl, kind, record.id),
      author: doc.author ?? 0,
      i18n_language: doc.lang,
      translations: translationUrls(env.apiUrl, kind, record.id, languagesOf(record)),
    },
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
