import type { Language } from '../../config';
import type { PresentEnv } from './environment';
import { collectionRestUrl, documentRestUrl, publicUrl, recordRestUrl, translationUrls } from '../domain/recordUrls';
import { inLanguage, languagesOf, type StoredRecord } from '../storage/storedRecord';
import type { TermDoc } from '../storage/stores';
import type { TermKind } from '../domain/kinds';

export interface TermUrls {
  self: string;
  collection: string;
  up?: string;
}

/** A category or tag as the API returns it (CONTRACT part 3). */
export type TermRecord = {
  id: number;
  name: string;
  slug: string;
  taxonomy: TermKind;
  description: string | null;
  parent: number;
  count: number;
  url: string;
  rest_url: string;
  urls: TermUrls;
  i18n_language: Language;
  translations: Partial<Record<Language, string>>;
};

/**
 * The API record of a term in `lang` (falling back to its original language). `count` is the
 * number of published events using it, computed by the caller. `rest_url` is carried as on
 * every other record (it also gives the `Location` of a create).
 */
export function presentTerm(
  kind: TermKind,
  record: StoredRecord<TermDoc>,
  lang: Language,
  env: PresentEnv,
  count: number,
): TermRecord {
  const doc = inLanguage(record, lang);
  const parent = kind === 'category' ? (doc.parent ?? 0) : 0;
  const self = documentRestUrl(env, kind, record.id, doc.lang);
  const urls: TermUrls = { self, collection: collectionRestUrl(env.apiUrl, kind) };
  if (parent !== 0) urls.up = recordRestUrl(env.apiUrl, 'category', parent);
  return {
    id: record.id,
    name: doc.name,
    slug: doc.slug,
    taxonomy: kind,
    description: doc.description ?? null,
    parent,
    count,
    url: publicUrl(env.siteUrl, kind, doc.slug),
    rest_url: self,
    urls,
    i18n_language: doc.lang,
    translations: translationUrls(env.apiUrl, kind, record.id, languagesOf(record)),
  };
}
