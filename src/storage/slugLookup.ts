import type { Collection, Filter } from 'mongodb';
import type { Language } from '../../config';
import { slugify } from '../domain/slug';
import type { BaseDoc } from './storedRecord';

/**
 * The IDs of the records that slugs written by a client name, by text, in one read: each text
 * as stored, then normalised (`Café-Zürich` finds `cafe-zurich`), then cut as new slugs are (a
 * suffixed `…-2` may be longer than the cut, which would find the record it was suffixed
 * against); each slug in `lang` first, then in any language (the lowest ID).
 */
export async function idsBySlugsAsWritten<D extends BaseDoc>(
  docs: Collection<D>,
  texts: string[],
  lang: Language,
): Promise<Map<string, number>> {
  const forms = new Map(texts.map((text) => [text, [...new Set([text, slugify(text, Infinity), slugify(text)])]]));
  const slugs = [...new Set([...forms.values()].flat())].filter(Boolean);
  const holders = { projection: { id: 1, lang: 1, slug: 1 } };
  const found =
    slugs.length > 0 ? ((await docs.find({ slug: { $in: slugs } } as Filter<D>, holders).toArray()) as D[]) : [];
  const bySlug = new Map<string, D>();
  for (const doc of found) {
    const held = bySlug.get(doc.slug);
    if (!held || (held.lang !== lang && (doc.lang === lang || doc.id < held.id))) bySlug.set(doc.slug, doc);
  }
  const ids = new Map<string, number>();
  for (const [text, candidates] of forms) {
    const hit = candidates.map((slug) => bySlug.get(slug)).find((doc) => doc !== undefined);
    if (hit) ids.set(text, hit.id);
  }
  return ids;
}
