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
