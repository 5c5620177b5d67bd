/** The five record kinds of the API (interface.md). */
export const RECORD_KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
export type TermKind = 'category' | 'tag';

/** Each kind's plural: its API collection and its MongoDB collection (and, but for events, an event's link field). */
export const PLURAL = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
} as const satisfies Record<RecordKind, string>;

/** Kinds an event links to; an event's link field is the kind's plural (`venues`). */
export type LinkedKind = Exclude<RecordKind, 'event'>;

/** The records an event links to, by kind and link field: their index documents count or embed it. */
export const EVENT_LINKS = [
  ['venue', 'venues'],
  ['organizer', 'organizers'],
  ['category', 'categories'],
  ['tag', 'tags'],
] as const satisfies readonly (readonly [LinkedKind, (typeof PLURAL)[LinkedKind]])[];

/** A category ID sent as a tag's (or the reverse) is named as such in errors. */
export const OTHER_TERM_KIND = { category: 'tag', tag: 'category' } as const satisfies Record<TermKind, TermKind>;

/** The IDs of `records`, per kind, in their order. */
export function idsByKind(
  records: Iterable<{ readonly kind: RecordKind; readonly id: number }>,
): Map<RecordKind, number[]> {
  const byKind = new Map<RecordKind, number[]>();
  for (const { kind, id } of records) {
    const ids = byKind.get(kind) ?? [];
    byKind.set(kind, ids);
    ids.push(id);
  }
  return byKind;
}
