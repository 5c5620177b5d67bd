import { randomInt } from 'node:crypto';
import type { Collection, Filter } from 'mongodb';
import type { Language } from '../../config';
import { slugify } from '../domain/slug';
import { ConflictError } from '../domain/errors';
import { escapeRegex, isDuplicateKey } from './mongo';

/**
 * Slugs tried by counting (`-2`, `-3`…) before the record's own ID decides: writers wanting one
 * slug at once all count to the same next number, so a crowd of them would take turns for long.
 */
const COUNTED_ATTEMPTS = 4;
/** Slugs tried in all before a write gives up (each try follows a unique-index refusal). */
const MAX_SLUG_ATTEMPTS = 8;

interface SlugDoc {
  _id: string;
  id: number;
  lang: Language;
  slug: string;
}

/** Documents in `lang` whose slug is `base` or `base-<number>`. */
export async function slugFamily<D extends SlugDoc>(docs: Collection<D>, base: string, lang: Language): Promise<D[]> {
  const pattern = new RegExp(`^${escapeRegex(base)}(-\\d+)?$`);
  return (await docs.find({ lang, slug: { $regex: pattern } } as Filter<D>).toArray()) as D[];
}

/** `base`, or `base-2`, `base-3`... : the first not in `used`. */
export function firstFreeSlug(base: string, used: Set<string>): string {
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** `base`, or `base-2`, `base-3`... : the first not taken by another record in `lang`. */
async function freeSlug<D extends SlugDoc>(docs: Collection<D>, base: string, lang: Language, ownId: number) {
  const taken = await slugFamily(docs, base, lang);
  return firstFreeSlug(base, new Set(taken.filter((d) => d.id !== ownId).map((d) => d.slug)));
}

/**
 * The slug a write tries at `attempt` (after `attempt` refusals): `base` first, then the first
 * free `base-N`, then `base-<record ID>` (unique to this writer among those wanting `base` at
 * once), then that with a random suffix (for a counted `base-N` or a slug chosen by hand that
 * equals it).
 */
async function candidate<D extends SlugDoc>(
  docs: Collection<D>,
  base: string,
  doc: { id: number; lang: Language },
  attempt: number,
): Promise<string> {
  if (attempt === 0) return base;
  if (attempt < COUNTED_ATTEMPTS) return freeSlug(docs, base, doc.lang, doc.id);
  if (attempt === COUNTED_ATTEMPTS) return `${base}-${doc.id}`;
  return `${base}-${doc.id}-${randomInt(2, 1_000_000)}`;
}

function noFreeSlug(base: string): ConflictError {
  return new ConflictError(`Other writes kept taking the slug "${base}" and its variants; try again.`);
}

/** Inserts `doc` with a free slug made of `source`; returns the document inserted. */
export async function insertWithUniqueSlug<D extends SlugDoc>(
  docs: Collection<D>,
  doc: Record<string, unknown>,
  source: string,
): Promise<Record<string, unknown>> {
  const base = slugify(source) || String(doc.id);
  const record = doc as { id: number; lang: Language };
  for (let attempt = 0; attempt < MAX_SLUG_ATTEMPTS; attempt++) {
    const inserted = { ...doc, slug: await candidate(docs, base, record, attempt) };
    try {
      await docs.insertOne(inserted as never);
      return inserted;
    } catch (err) {
      if (!isDuplicateKey(err) || !/slug/.test(String((err as Error).message))) throw err;
    }
  }
  throw noFreeSlug(base);
}

/** Sets the fields `own` of `doc`, its `slug` (when given) made free in its language. */
export async function setWithUniqueSlug<D extends SlugDoc>(
  docs: Collection<D>,
  doc: D,
  own: Record<string, unknown>,
): Promise<void> {
  const wanted = own.slug === undefined ? undefined : slugify(String(own.slug)) || String(doc.id);
  const changes = wanted !== undefined && wanted !== doc.slug;
  for (let attempt = 0; attempt < MAX_SLUG_ATTEMPTS; attempt++) {
    // Counting starts at once: the wanted slug itself is mostly what was found taken.
    const slug = changes ? await candidate(docs, wanted, doc, Math.max(attempt, 1)) : doc.slug;
    try {
      await docs.updateOne({ _id: doc._id } as Filter<D>, { $set: { ...own, slug } } as never);
      return;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  throw noFreeSlug(wanted ?? doc.slug);
}
