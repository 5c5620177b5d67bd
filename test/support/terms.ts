import { PLURAL, type TermKind as Kind } from '../../src/domain/kinds';
import type { TermRecord } from '../../src/presenters/term';
import { api } from './api';
import { testWorld } from './harness';

const SITE_PATH: Record<Kind, string> = { category: 'events/category', tag: 'events/tag' };

export interface ExpectedTerm {
  id: number;
  name: string;
  slug: string;
  description?: string | null;
  parent?: number;
  count?: number;
  lang?: 'en' | 'fr' | 'de';
  /** Languages with their own document (default: `lang`). */
  langs?: ('en' | 'fr' | 'de')[];
}

/** The full API record a term read should answer, built independently of the presenter. */
export function expectedTerm(kind: Kind, e: ExpectedTerm): TermRecord {
  const { config } = testWorld();
  const api = `${config.apiUrl}/calendar/events/v1`;
  const lang = e.lang ?? 'en';
  // The root serving the document's language (the plain one for the default language, en here).
  const self = `${config.apiUrl}${lang === 'en' ? '' : `/${lang}`}/calendar/events/v1/${PLURAL[kind]}/${e.id}`;
  const translations: Record<string, string> = {};
  for (const l of ['en', 'fr', 'de'] as const) {
    if ((e.langs ?? [lang]).includes(l))
      translations[l] = `${config.apiUrl}/${l}/calendar/events/v1/${PLURAL[kind]}/${e.id}`;
  }
  const parent = e.parent ?? 0;
  return {
    id: e.id,
    name: e.name,
    slug: e.slug,
    taxonomy: kind,
    description: e.description ?? null,
    parent,
    count: e.count ?? 0,
    url: `${config.siteUrl}/${SITE_PATH[kind]}/${e.slug}/`,
    rest_url: self,
    urls: parent
      ? { self, collection: `${api}/${PLURAL[kind]}`, up: `${api}/categories/${parent}` }
      : { self, collection: `${api}/${PLURAL[kind]}` },
    i18n_language: lang,
    translations,
  };
}

/** Creates a term over HTTP and returns its body (fails the test unless 201). */
export async function createTerm(kind: Kind, body: Record<string, unknown>): Promise<TermRecord> {
  const res = await api.post<TermRecord>(`/${PLURAL[kind]}`, body);
  if (res.status !== 201) throw new Error(`creating a ${kind} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

let seq = 0;
/** A lower-case token no other test uses (tests share one database per run), for names and slugs. */
export const uniqueToken = (): string => `u${Date.now().toString(36)}${(seq++).toString(36)}`;
