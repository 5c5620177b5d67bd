import type { Filter } from 'mongodb';
import type { Language } from '../../config';
import type { RecordStore } from './recordStore';
import type { EventDoc, TermDoc } from './stores';

export type TermField = 'categories' | 'tags';

/**
 * Published events using each term, one aggregation for all `termIds`: the events collection
 * holds one document per language, so distinct event IDs are counted, not documents.
 */
export async function publishedEventCounts(events: RecordStore<EventDoc>, field: TermField, termIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const ids = [...new Set(termIds)];
  if (ids.length === 0) return counts;
  const rows = await events.docs
    .aggregate<{ _id: number; count: number }>([
      { $match: { status: 'publish', [field]: { $in: ids } } },
      { $unwind: `$${field}` },
      { $match: { [field]: { $in: ids } } },
      { $group: { _id: { term: `$${field}`, event: '$id' } } },
      { $group: { _id: '$_id.term', count: { $sum: 1 } } },
    ])
    .toArray();
  for (const row of rows) counts.set(row._id, row.count);
  return counts;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** ID of the term whose name equals `name` ignoring case, in `lang` first, then in any language. */
export async function findTermIdByName(terms: RecordStore<TermDoc>, name: string, lang: Language): Promise<number | null> {
  const sameName = { name: { $regex: new RegExp(`^${escapeRegex(name)}$`, 'i') } };
  const hit =
    (await terms.docs.find({ ...sameName, lang } as Filter<TermDoc>).sort({ id: 1 }).limit(1).next()) ??
    (await terms.docs.find(sameName as Filter<TermDoc>).sort({ id: 1 }).limit(1).next());
  return hit ? hit.id : null;
}
