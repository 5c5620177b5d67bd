import type { Filter } from 'mongodb';
import type { Language } from '../../config';
import type { RecordStore } from './recordStore';
import type { EventDoc, TermDoc } from './stores';

export type TermField = 'categories' | 'tags';

/**
 * Published events using each term, one aggregation for all `termIds`. The events collection
 * holds one document per language, so documents are first grouped into one row per event (the
 * term arrays are shared fields, identical in every language), then counted per term.
 */
export async function publishedEventCounts(
  events: RecordStore<EventDoc>,
  field: TermField,
  termIds: number[],
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const ids = [...new Set(termIds)];
  if (ids.length === 0) return counts;
  const rows = await events.docs
    .aggregate<{ _id: number; count: number }>([
      { $match: { status: 'publish', [field]: { $in: ids } } },
      { $group: { _id: '$id', terms: { $first: `$${field}` } } },
      { $unwind: '$terms' },
      { $match: { terms: { $in: ids } } },
      { $group: { _id: '$terms', count: { $sum: 1 } } },
    ])
    .toArray();
  for (const row of rows) counts.set(row._id, row.count);
  return counts;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
