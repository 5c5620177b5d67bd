import type { OccurrenceOverride, OccurrenceText } from '../domain/recurrence/overrides';
import type { Db } from 'mongodb';
import type { Language } from '../../config';
import { RecordStore } from './recordStore';
import { type BaseDoc } from './storedRecord';
import type { SyncQueue } from './syncQueue';
import { EVENT_LINKS, PLURAL, type RecordKind } from '../domain/kinds';
import type { Status } from '../domain/status';

/** Fields shared by events, venues and organizers ("posts"). */
export interface PostDoc extends BaseDoc {
  status: Status;
  /** Status before trashing, restored if the record is untrashed. */
  statusBeforeTrash?: Status;
  author: number;
  /** Publication date (UTC). */
  date: Date;
  description: string | null;
  excerpt: string | null;
  image: string | null;
}

export interface VenueDoc extends PostDoc {
  venue: string;
  address: string | null;
  city: string | null;
  country: string | null;
  province: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
  website: string | null;
  stateprovince: string | null;
  show_map: boolean | null;
  show_map_link: boolean | null;
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizerDoc extends PostDoc {
  organizer: string;
  phone: string | null;
  website: string | null;
  email: string | null;
}

export interface EventDoc extends PostDoc {
  title: string;
  /** Instants in UTC; local times are derived with `timezone`. */
  start: Date;
  end: Date;
  timezone: string;
  all_day: boolean;
  /** As sent: a JSON number stays a number (a decimal), text stays text (see domain/cost). */
  cost: string | number | null;
  website: string | null;
  show_map: boolean | null;
  show_map_link: boolean | null;
  hide_from_listings: boolean;
  sticky: boolean;
  featured: boolean;
  ticketed: boolean;
  post_parent: number;
  /** Salted scrypt hash (`salt:hash`), never returned. */
  passwordHash: string | null;
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
  /** RFC 5545 RRULE/RDATE/EXDATE lines of a series (EXTENSIONS part 11); absent or null: a single event. */
  recurrence?: string[] | null;
  /** Set once the event has been a series: its occurrence documents may need removing. */
  was_series?: boolean;
  /** Occurrences of the series changed on their own (moved, another venue...), by recurrence ID. */
  occurrence_overrides?: OccurrenceOverride[] | null;
  /** A series' last end (9999-12-31 when it goes on past the horizon); absent on single events. */
  series_end?: Date | null;
  /** Their own titles, descriptions and excerpts in this language, by recurrence ID. */
  occurrence_texts?: Record<string, OccurrenceText> | null;
}

export interface TermDoc extends BaseDoc {
  name: string;
  description: string | null;
  /** Parent category ID (0 when none; always 0 for tags). */
  parent: number;
}

export interface Stores {
  events: RecordStore<EventDoc>;
  venues: RecordStore<VenueDoc>;
  organizers: RecordStore<OrganizerDoc>;
  categories: RecordStore<TermDoc>;
  tags: RecordStore<TermDoc>;
}

/** The store of `kind`, for code that handles every kind alike (ops, indexing). */
export function storeOf(stores: Stores, kind: RecordKind): RecordStore<any> {
  return stores[PLURAL[kind]];
}

/** The stores of the other kinds drawing IDs from `kind`'s counter: an ID of theirs is no ID of `kind`'s. */
export function siblingStores(stores: Stores, kind: RecordKind): RecordStore<BaseDoc>[] {
  const own = storeOf(stores, kind);
  return (Object.values(stores) as RecordStore<BaseDoc>[]).filter(
    (store) => store !== own && store.counter === own.counter,
  );
}

const POST_TRANSLATABLE = ['description', 'excerpt'] as const;

export function createStores(db: Db, sync: SyncQueue): Stores {
  return {
    events: new RecordStore<EventDoc>(db, sync, {
      collection: 'events',
      kind: 'event',
      counter: 'post',
      translatable: ['title', ...POST_TRANSLATABLE, 'occurrence_texts'],
      slugSource: 'title',
      treeField: 'post_parent',
      // Venues, organizers and terms count an event's links while it is published (and unprotected).
      dependents: { links: EVENT_LINKS, watched: ['status', 'end', 'series_end', 'passwordHash'] },
    }),
    venues: new RecordStore<VenueDoc>(db, sync, {
      collection: 'venues',
      kind: 'venue',
      counter: 'post',
      translatable: ['venue', ...POST_TRANSLATABLE],
      slugSource: 'venue',
    }),
    organizers: new RecordStore<OrganizerDoc>(db, sync, {
      collection: 'organizers',
      kind: 'organizer',
      counter: 'post',
      translatable: ['organizer', ...POST_TRANSLATABLE],
      slugSource: 'organizer',
    }),
    categories: new RecordStore<TermDoc>(db, sync, {
      collection: 'categories',
      kind: 'category',
      counter: 'term',
      translatable: ['name', 'description'],
      slugSource: 'name',
      treeField: 'parent',
    }),
    tags: new RecordStore<TermDoc>(db, sync, {
      collection: 'tags',
      kind: 'tag',
      counter: 'term',
      translatable: ['name', 'description'],
      slugSource: 'name',
    }),
  };
}

/** Events are looked up by what they link to (propagation, unlinking, `post_parent`). */
const EVENT_LINK_INDEXES = (['venues', 'organizers', 'categories', 'tags', 'post_parent'] as const).map((field) => ({
  key: { [field]: 1 },
  options: { name: `${field}_1` },
}));

export async function ensureStoreIndexes(stores: Stores): Promise<void> {
  for (const store of Object.values(stores))
    await store.ensureIndexes(store === stores.events ? EVENT_LINK_INDEXES : []);
}

export type { Language };
