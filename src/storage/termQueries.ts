import type { Filter } from 'mongodb';
import type { Language } from '../../config';
import { ConflictError } from '../errors';
import { escapeRegex, isDuplicateKey } from './mongo';
import { inLanguage } from './storedRecord';
import type { RecordStore } from './recordStore';
import type { EventDoc, TermDoc } from './stores';

export type TermField = 'categories' | 'tags';

/** Fields of an event that link it to other records. */
export type EventLinkField = TermField | 'venues' | 'organizers';

export interface LinkedEventStats {
  published: number;
  /** Latest end among them (only when asked for). */
  endMax: Date | null;
}

/**
 * Published events (with `unprotectedOnly`, those without a password) linked to each of `ids`
 * through `field`, one aggregation for all of them; with `latestEnd`, also the latest end among
 * them. The events collection holds one document per
 * language, so documents are first grouped into one row per event (links and dates are shared
 * fields, identical in every language), then counted per linked record.
 */
export async function publishedEventStats(
  events: RecordStore<EventDoc>,
  field: EventLinkField,
  linkedIds: number[],
  options: { latestEnd?: boolean; unprotectedOnly?: boolean } = {},
): Promise<Map<number, LinkedEventStats>> {
  const stats = new Map<number, LinkedEventStats>();
  const ids = [...new Set(linkedIds)];
  if (ids.length === 0) return stats;
  const end = options.latestEnd ? { end: { $first: '$end' } } : {};
  const rows = await events.docs
    .aggregate<{ _id: number; published: number; end?: Date | null }>([
      {
        $match: {
          status: 'publish',
          ...(options.unprotectedOnly ? { passwordHash: null } : {}),
          [field]: { $in: ids },
        },
      },
      { $group: { _id: '$id', linked: { $first: `$${field}` }, ...end } },
      { $unwind: '$linked' },
      { $match: { linked: { $in: ids } } },
      // Latest end first, so that each group's $first is its maximum ($max is not on every server).
      ...(options.latestEnd ? [{ $sort: { end: -1 } }] : []),
      { $group: { _id: '$linked', published: { $sum: 1 }, ...end } },
    ])
    .toArray();
  for (const row of rows) stats.set(row._id, { published: row.published, endMax: row.end ?? null });
  return stats;
}

/** Published events using each term (see publishedEventStats). */
export async function publishedEventCounts(
  events: RecordStore<EventDoc>,
  field: TermField,
  termIds: number[],
): Promise<Map<number, number>> {
  const stats = await publishedEventStats(events, field, termIds);
  return new Map([...stats].map(([id, { published }]) => [id, published]));
}

/**
 * A pattern matching `text` exactly but ignoring case, spelled out per character (`(?:é|É)`)
 * because not every MongoDB-protocol server folds non-ASCII case under the `i` option.
 */
function caseInsensitivePattern(text: string): RegExp {
  let pattern = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    pattern += lower === upper ? escapeRegex(char) : `(?:${escapeRegex(lower)}|${escapeRegex(upper)})`;
  }
  return new RegExp(`^${pattern}$`);
}

/** ID of the term whose name equals `name` ignoring case, in `lang` first, then in any language. */
export async function findTermIdByName(
  terms: RecordStore<TermDoc>,
  name: string,
  lang: Language,
): Promise<number | null> {
  const sameName = { name: { $regex: caseInsensitivePattern(name) } };
  const hit =
    (await terms.docs
      .find({ ...sameName, lang } as Filter<TermDoc>)
      .sort({ id: 1 })
      .limit(1)
      .next()) ??
    (await terms.docs
      .find(sameName as Filter<TermDoc>)
      .sort({ id: 1 })
      .limit(1)
      .next());
  return hit ? hit.id : null;
}

/** Slug suffixes tried when the name's own slug belongs to a differently named term. */
const MAX_SLUG_CANDIDATES = 20;

/**
 * Creates the term `name` in `lang` (description null, parent 0) with the slug `base`, or
 * `base-2`, `base-3`… when a differently named term holds it; returns its ID. Concurrent
 * creators of one name walk the same slugs in the same order, so all stop at the same term: the
 * one that inserted it, the others finding it by name on the slug the unique index refused.
 */
export async function createTermByName(
  terms: RecordStore<TermDoc>,
  name: string,
  base: string,
  lang: Language,
): Promise<number> {
  for (let n = 1; n <= MAX_SLUG_CANDIDATES; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    try {
      const created = await terms.create(lang, { name, description: null, parent: 0, slug }, { exactSlug: true });
      return created.id;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const holder = await terms.getBySlug(slug, lang);
    if (holder && inLanguage(holder, lang).name.toLowerCase() === name.toLowerCase()) return holder.id;
  }
  throw new ConflictError(`Other terms hold the slug "${base}" and its variants: name the term differently.`);
}
