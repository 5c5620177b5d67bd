import type { Collection, Filter } from 'mongodb';
import type { Language } from '../../config';
import { slugify } from '../domain/slug';
import { escapeRegex, isDuplicateKey } from './mongo';

/** Slugs tried before a write gives up (each try follows a unique-index refusal). */
const MAX_SLUG_ATTEMPTS = 20;

interface SlugDoc {
  _id: string;
  id: number;
  lang: Language;
  slug: string;
}

/** `base`, or `base-2`, `base-3`... : the first not taken by another record in `lang`. */
async function freeSlug<D extends SlugDoc>(
  docs: Collection<D>,
  base: string,
  lang: Language,
  ownId: number,
): Promise<string> {
  const pattern = new RegExp(`^${escapeRegex(base)}(-\\d+)?$`);
  const taken = await docs.find({ lang, slug: { $regex: pattern } } as Filter<D>).toArray();
  const used = new Set(taken.filter((d) => d.id !== ownId).map((d) => d.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Inserts `doc` with a free slug made of `source`; returns the document inserted. */
export async function insertWithUniqueSlug<D extends SlugDoc>(
  docs: Collection<D>,
  doc: Record<string, unknown>,
  source: string,
): Promise<Record<string, unknown>> {
  const base = slugify(source) || String(doc.id);
  for (let attempt = 0; attempt < MAX_SLUG_ATTEMPTS; attempt++) {
    // Most slugs are new: try the base itself before looking for the taken ones.
    const slug = attempt === 0 ? base : await freeSlug(docs, base, doc.lang as Language, doc.id as number);
    try {
      const inserted = { ...doc, slug };
      await docs.insertOne(inserted as never);
      return inserted;
    } catch (err) {
      if (!isDuplicateKey(err) || !/slug/.test(String((err as Error).message))) throw err;
    }
  }
  throw new Error(`could not find a free slug for ${base}`);
}

/** Sets the fields `own` of `doc`, its `slug` (when given) made free in its language. */
export async function setWithUniqueSlug<D extends SlugDoc>(
  docs: Collection<D>,
  doc: D,
  own: Record<string, unknown>,
): Promise<void> {
  const wanted = own.slug === undefined ? undefined : slugify(String(own.slug)) || String(doc.id);
  for (let attempt = 0; attempt < MAX_SLUG_ATTEMPTS; attempt++) {
    const slug =
      wanted === undefined || wanted === doc.slug ? undefined : await freeSlug(docs, wanted, doc.lang, doc.id);
    try {
      await docs.updateOne(
        { _id: doc._id } as Filter<D>,
        { $set: { ...own, ...(slug ? { slug } : { slug: doc.slug }) } } as never,
      );
      return;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  throw new Error(`could not find a free slug for ${wanted}`);
}
