import type { Filter } from 'mongodb';
import type { Language } from '../../config';
import { ConflictError } from '../domain/errors';
import { escapeRegex, isDuplicateKey } from './mongo';
import { firstFreeSlug, slugFamily } from './uniqueSlugs';
import type { RecordStore } from './recordStore';
import type { EventDoc, TermDoc } from './stores';
import { liveOverrides, startOfRecurrenceId, type OccurrenceOverride } from '../domain/recurrence/overrides';

export type TermField = 'categories' | 'tags';

/** Fields of an event that link it to other records. */
export type EventLinkField = TermField | 'venues' | 'organizers';

export interface LinkedEventStats {
  published: number;
  /** Latest end among them. */
  endMax: Date | null;
}

/**
 * The published events linked to a venue or organizer: those without a password, which every
 * caller may see it linked to, and those with one, which only editors and above may.
 */
export interface PostEventStats {
  open: LinkedEventStats;
  protected: LinkedEventStats;
}

/**
 * Published events using each of the terms `ids`, one aggregation for all of them. The events
 * collection holds one document per language, so documents are first grouped into one row per
 * event (links are shared fields, identical in every language), then counted per term.
 */
export async function publishedEventCounts(
  events: RecordStore<EventDoc>,
  field: TermField,
  linkedIds: number[],
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const ids = [...new Set(linkedIds)];
  if (ids.length === 0) return counts;
  const rows = await events.docs
    .aggregate<{ _id: number; published: number }>([
      { $match: { status: 'publish', [field]: { $in: ids } } },
      { $group: { _id: '$id', linked: { $first: `$${field}` } } },
      { $unwind: '$linked' },
      { $match: { linked: { $in: ids } } },
      { $group: { _id: '$linked', published: { $sum: 1 } } },
    ])
    .toArray();
  for (const row of rows) counts.set(row._id, row.published);
  return counts;
}

/**
 * Published events per venue or organizer of `ids`, with the latest end among them, apart for
 * events with and without a password: a series' end is that of its last occurrence
 * (`series_end`); a record only one of its occurrences moved to counts the series too, until
 * that occurrence's end. One row per event linking any of `ids`, folded here.
 */
export async function postEventStats(
  events: RecordStore<EventDoc>,
  field: 'venues' | 'organizers',
  linkedIds: number[],
): Promise<Map<number, PostEventStats>> {
  const stats = new Map<number, PostEventStats>();
  const wanted = new Set(linkedIds);
  if (wanted.size === 0) return stats;
  const ids = [...wanted];
  const rows = events.docs.aggregate<{
    linked?: number[];
    start: Date;
    end: Date;
    series_end?: Date | null;
    timezone: string;
    all_day: boolean;
    recurrence?: string[] | null;
    occurrence_overrides?: OccurrenceOverride[] | null;
    passwordHash?: string | null;
  }>([
    {
      $match: {
        status: 'publish',
        $or: [{ [field]: { $in: ids } }, { [`occurrence_overrides.${field}`]: { $in: ids } }],
      },
    },
    {
      $group: {
        _id: '$id',
        linked: { $first: `$${field}` },
        start: { $first: '$start' },
        end: { $first: '$end' },
        series_end: { $first: '$series_end' },
        timezone: { $first: '$timezone' },
        all_day: { $first: '$all_day' },
        recurrence: { $first: '$recurrence' },
        occurrence_overrides: { $first: '$occurrence_overrides' },
        passwordHash: { $first: '$passwordHash' },
      },
    },
  ]);
  for await (const row of rows) {
    const ends = new Map<number, Date>();
    const link = (id: number, end: Date) => {
      const seen = ends.get(id);
      if (wanted.has(id) && (!seen || end > seen)) ends.set(id, end);
    };
    for (const id of row.linked ?? []) link(id, row.series_end && row.series_end > row.end ? row.series_end : row.end);
    for (const override of liveOverrides(row)) {
      const start = override.start ?? startOfRecurrenceId(override.recurrence_id);
      const end = override.end ?? new Date(start.getTime() + row.end.getTime() - row.start.getTime());
      for (const id of (override as Partial<Record<EventLinkField, number[]>>)[field] ?? []) link(id, end);
    }
    for (const [id, end] of ends) {
      let entry = stats.get(id);
      if (!entry) {
        entry = { open: { published: 0, endMax: null }, protected: { published: 0, endMax: null } };
        stats.set(id, entry);
      }
      const counted = row.passwordHash ? entry.protected : entry.open;
      counted.published++;
      if (!counted.endMax || end > counted.endMax) counted.endMax = end;
    }
  }
  return stats;
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

/** Among documents of one record or several, the record meant: one in `lang` first, then the lowest ID. */
function preferredId(docs: TermDoc[], lang: Language): number | undefined {
  const inLang = docs.filter((doc) => doc.lang === lang);
  const ids = (inLang.length > 0 ? inLang : docs).map((doc) => doc.id);
  return ids.length > 0 ? Math.min(...ids) : undefined;
}

/**
 * The IDs of the existing terms `names` name, keyed by the name lower-cased, in two reads: each
 * name is a slug first (lower-cased), then a name ignoring case; in `lang` first, then in any
 * language (the lowest ID). Names matching nothing are absent.
 */
export async function termIdsByNames(
  terms: RecordStore<TermDoc>,
  names: string[],
  lang: Language,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  /** For each key not matched yet, the record among `docs` that `matches` finds. */
  const pick = (docs: TermDoc[], matchers: Map<string, (doc: TermDoc) => boolean>) => {
    for (const [key, matches] of matchers) {
      const id = preferredId(docs.filter(matches), lang);
      if (id !== undefined) ids.set(key, id);
    }
  };
  const keys = [...new Set(names.map((name) => name.toLowerCase()))];
  if (keys.length === 0) return ids;
  const holders = (await terms.docs
    .find({ slug: { $in: keys } } as Filter<TermDoc>, { projection: { id: 1, lang: 1, slug: 1 } })
    .toArray()) as TermDoc[];
  pick(holders, new Map(keys.map((key) => [key, (doc: TermDoc) => doc.slug === key])));
  const patterns = new Map(
    names
      .filter((name) => !ids.has(name.toLowerCase()))
      .map((name) => [name.toLowerCase(), caseInsensitivePattern(name)]),
  );
  if (patterns.size === 0) return ids;
  const named = (await terms.docs
    .find({ name: { $in: [...patterns.values()] } } as Filter<TermDoc>, { projection: { id: 1, lang: 1, name: 1 } })
    .toArray()) as TermDoc[];
  pick(named, new Map([...patterns].map(([key, pattern]) => [key, (doc: TermDoc) => pattern.test(doc.name)])));
  return ids;
}

/** Inserts tried before giving up (each after another writer took the free slug first). */
const MAX_CREATE_ATTEMPTS = 5;

/**
 * Creates the term `name` in `lang` (description null, parent 0) with the slug `base`, or the
 * first free `base-2`, `base-3`… when differently named terms hold it; returns its ID, or that
 * of a term of this name already holding one of those slugs. The slugs are read before
 * inserting, so only a race costs an insert (and an ID). Concurrent creators of one name read
 * the same free slug, so all stop at the same term: the one that inserted it, the others finding
 * it by name among the slugs they read again after the unique index refused theirs.
 */
export async function createTermByName(
  terms: RecordStore<TermDoc>,
  name: string,
  base: string,
  lang: Language,
): Promise<number> {
  const sameName = caseInsensitivePattern(name);
  for (let attempt = 0; attempt < MAX_CREATE_ATTEMPTS; attempt++) {
    const family = await slugFamily(terms.docs, base, lang);
    const named = family.find((doc) => sameName.test(doc.name));
    if (named) return named.id;
    const slug = firstFreeSlug(base, new Set(family.map((doc) => doc.slug)));
    try {
      const created = await terms.create(lang, { name, description: null, parent: 0, slug }, { exactSlug: true });
      return created.id;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  throw new ConflictError(`Other writes kept taking the slug "${base}" and its variants; try again.`);
}
