/**
 * Realistic demo data in three languages (`npm run seed`, scripts/seed.ts; the benchmarks).
 *
 *   seedDemo(services, options) → Promise<SeedResult>
 *
 * options:
 *   events      number of events to create (required; 100,000 is fine: bulk inserts)
 *   seed        PRNG seed (default 1): the same seed (and `now`) gives the same content
 *   now         anchor of past/upcoming dates (default: today 00:00 UTC)
 *   index       'worker'  (default) the records are queued: a running sync worker indexes them
 *               'reindex' nothing is queued; a reindex of every kind runs at the end
 *               'none'    nothing is queued or indexed (run `npm run reindex` later)
 *   chunkSize   events per bulk insert (default 1000)
 *   onProgress  (eventsDone, eventsTotal) after each bulk insert
 *   reindex     options passed to the final reindex (progress, say...) when index = 'reindex'
 * result: { counts: { events, venues, organizers, categories, tags }, ids: { same keys → IDs },
 *           seconds }. Categories and tags are reused (by English slug) when they exist.
 *
 * Venues sit in real cities (src/ops/demoCatalog.ts) with coordinates near the centre, events
 * take their venue's time zone; a third are past, some all-day (and multi-day), some drafts,
 * private, password-protected or hidden from listings; titles and descriptions come from
 * templates in en/fr/de, written first in the city's language, half of them translated.
 * Records are written with RecordStore.createMany: the same document shape and sync entries as
 * the API's writes; event dates go through the API's own resolveEventDates.
 */
import { DateTime } from 'luxon';
import { LANGUAGES, type Language } from '../../config';
import { resolveEventDates } from '../domain/eventDates';
import { sanitizeRichText } from '../domain/html';
import { slugify } from '../domain/slug';
import { hashEventPassword } from '../routes/events/password';
import type { Services } from '../services';
import type { NewRecord } from '../storage/recordStore';
import type { EventDoc, OrganizerDoc, Status, TermDoc, VenueDoc } from '../storage/stores';
import * as catalog from './demoCatalog';
import { reindex, type ReindexOptions } from './reindex';

export type SeedIndexMode = 'worker' | 'reindex' | 'none';

export interface SeedOptions {
  events: number;
  seed?: number;
  now?: Date;
  index?: SeedIndexMode;
  chunkSize?: number;
  onProgress?: (done: number, total: number) => void;
  reindex?: Omit<ReindexOptions, 'kinds' | 'langs' | 'dryRun'>;
}

type Kinds = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

export interface SeedResult {
  counts: Record<Kinds, number>;
  ids: Record<Kinds, number[]>;
  seconds: number;
}

interface SeededVenue {
  id: number;
  city: catalog.City;
  name: string;
}

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

class Dice {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** `#` → digit, `A` → capital letter. */
  pattern(shape: string): string {
    return shape.replace(/[#A]/g, (c) =>
      c === '#' ? String(this.int(0, 9)) : String.fromCharCode(65 + this.int(0, 25)),
    );
  }
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_m, key: string) => values[key] ?? '');
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Rich text as the API stores it (templates hold only allowed markup; sanitised once). */
const richText = (template: string, values: Record<string, string>) =>
  sanitizeRichText(fill(template, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, escapeHtml(v)]))));

const POST_DEFAULTS = { author: 1, image: null, excerpt: null } as const;

export async function seedDemo(services: Services, options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  const dice = new Dice(prng(options.seed ?? 1));
  const mode = options.index ?? 'worker';
  const queueIndexing = mode === 'worker';
  const now = DateTime.fromJSDate(options.now ?? DateTime.utc().startOf('day').toJSDate(), { zone: 'UTC' });
  const total = Math.max(0, Math.floor(options.events));

  const categories = await seedCategories(services, queueIndexing);
  const tags = await seedTags(services, queueIndexing);
  const venues = await seedVenues(
    services,
    dice,
    Math.min(2000, Math.max(8, Math.ceil(total / 50))),
    now,
    queueIndexing,
  );
  const organizers = await seedOrganizers(
    services,
    dice,
    Math.min(1000, Math.max(5, Math.ceil(total / 100))),
    now,
    queueIndexing,
  );
  const passwordHash = await hashEventPassword('demo');
  const events: number[] = [];
  const chunkSize = options.chunkSize ?? 1000;
  for (let done = 0; done < total; done += chunkSize) {
    const chunk: NewRecord<EventDoc>[] = [];
    for (let i = done; i < Math.min(total, done + chunkSize); i++) {
      chunk.push(demoEvent(dice, now, { venues, organizers, categories, tags, passwordHash }));
    }
    events.push(...(await services.stores.events.createMany(chunk, { queueIndexing })));
    options.onProgress?.(events.length, total);
  }
  if (mode === 'reindex') await reindex(services, options.reindex ?? {});
  const ids = {
    events,
    venues: venues.map((v) => v.id),
    organizers: organizers.map((o) => o.id),
    categories: [...categories.byKey.values()],
    tags: [...tags.values()],
  };
  const counts = Object.fromEntries(Object.entries(ids).map(([kind, list]) => [kind, list.length])) as Record<
    Kinds,
    number
  >;
  return { counts, ids, seconds: (Date.now() - started) / 1000 };
}

interface Terms {
  byKey: Map<string, number>;
  /** Leaf (or childless root) key → its root's key. */
  rootOf: Map<string, string>;
}

/** Creates the terms missing (looked up by English slug) and returns every term's ID by key. */
async function seedTermLevel(
  services: Services,
  kind: 'categories' | 'tags',
  defs: { key: string; name: catalog.Texts; parent?: number }[],
  queueIndexing: boolean,
): Promise<Map<string, number>> {
  const store = services.stores[kind];
  const ids = new Map<string, number>();
  const missing: typeof defs = [];
  for (const def of defs) {
    const found = await store.getBySlug(def.key, 'en');
    if (found && found.docs.en?.slug === def.key) ids.set(def.key, found.id);
    else missing.push(def);
  }
  const records: NewRecord<TermDoc>[] = missing.map((def) => ({
    lang: 'en',
    content: { name: def.name.en, slug: def.key, description: null, parent: def.parent ?? 0 },
    translations: {
      fr: { name: def.name.fr, slug: slugify(def.name.fr) || def.key },
      de: { name: def.name.de, slug: slugify(def.name.de) || def.key },
    },
  }));
  const created = await store.createMany(records, { queueIndexing });
  missing.forEach((def, i) => ids.set(def.key, created[i] as number));
  return ids;
}

async function seedCategories(services: Services, queueIndexing: boolean): Promise<Terms> {
  const byKey = await seedTermLevel(services, 'categories', catalog.CATEGORIES, queueIndexing);
  const rootOf = new Map<string, string>();
  for (const root of catalog.CATEGORIES) {
    if (!root.children) rootOf.set(root.key, root.key);
    const parent = byKey.get(root.key) as number;
    const children = await seedTermLevel(
      services,
      'categories',
      (root.children ?? []).map((child) => ({ ...child, parent })),
      queueIndexing,
    );
    for (const [key, id] of children) {
      byKey.set(key, id);
      rootOf.set(key, root.key);
    }
  }
  return { byKey, rootOf };
}

function seedTags(services: Services, queueIndexing: boolean): Promise<Map<string, number>> {
  return seedTermLevel(services, 'tags', catalog.TAGS, queueIndexing);
}

function publishedBefore(dice: Dice, now: DateTime): Date {
  return now.minus({ days: dice.int(30, 400), minutes: dice.int(0, 1439) }).toJSDate();
}

async function seedVenues(
  services: Services,
  dice: Dice,
  count: number,
  now: DateTime,
  queueIndexing: boolean,
): Promise<SeededVenue[]> {
  const seeded: SeededVenue[] = [];
  const records: NewRecord<VenueDoc>[] = [];
  for (let i = 0; i < count; i++) {
    // A stride prime to the number of cities: few venues still span the three languages.
    const city = catalog.CITIES[(i * 5) % catalog.CITIES.length] as catalog.City;
    const country = catalog.COUNTRIES[city.country] as (typeof catalog.COUNTRIES)[string];
    const names = catalog.VENUE_NAMES[city.lang];
    const name = names.pattern(dice.pick(names.first), dice.pick(names.second));
    const street = catalog.STREETS[city.lang];
    const description = dice.pick(catalog.VENUE_DESCRIPTIONS);
    const describe = (lang: Language) => richText(description[lang], { city: city.name[lang] });
    seeded.push({ id: 0, city, name });
    records.push({
      lang: city.lang,
      content: {
        ...POST_DEFAULTS,
        status: 'publish',
        date: publishedBefore(dice, now),
        venue: name,
        description: describe(city.lang),
        address: street.pattern(dice.int(1, 180), dice.pick(street.names)),
        city: city.name[city.lang],
        country: country.name[city.lang],
        province: null,
        state: null,
        stateprovince: null,
        zip: dice.pattern(country.zip),
        phone: dice.pattern(country.phone),
        website: dice.chance(0.6) ? `https://${slugify(name)}.example.org` : null,
        show_map: true,
        show_map_link: true,
        geo_lat: Number((city.lat + (dice.next() - 0.5) * 0.06).toFixed(6)),
        geo_lng: Number((city.lng + (dice.next() - 0.5) * 0.08).toFixed(6)),
      },
      translations: Object.fromEntries(
        LANGUAGES.filter((lang) => lang !== city.lang).map((lang) => [lang, { description: describe(lang) }]),
      ),
    });
  }
  const ids = await services.stores.venues.createMany(records, { queueIndexing });
  return seeded.map((venue, i) => ({ ...venue, id: ids[i] as number }));
}

async function seedOrganizers(
  services: Services,
  dice: Dice,
  count: number,
  now: DateTime,
  queueIndexing: boolean,
): Promise<{ id: number; name: string }[]> {
  const names: string[] = [];
  const records: NewRecord<OrganizerDoc>[] = [];
  for (let i = 0; i < count; i++) {
    const city = dice.pick(catalog.CITIES);
    const name = fill(dice.pick(catalog.ORGANIZER_NAMES[city.lang]), { city: city.name[city.lang] });
    const slug = slugify(name);
    names.push(name);
    records.push({
      lang: city.lang,
      content: {
        ...POST_DEFAULTS,
        status: 'publish',
        date: publishedBefore(dice, now),
        organizer: name,
        description: null,
        email: `hello@${slug}.example.org`,
        phone: dice.pattern((catalog.COUNTRIES[city.country] as (typeof catalog.COUNTRIES)[string]).phone),
        website: `https://${slug}.example.org`,
      },
    });
  }
  const ids = await services.stores.organizers.createMany(records, { queueIndexing });
  return names.map((name, i) => ({ id: ids[i] as number, name }));
}

interface EventContext {
  venues: SeededVenue[];
  organizers: { id: number; name: string }[];
  categories: Terms;
  tags: Map<string, number>;
  passwordHash: string;
}

const STATUSES: [Status, number][] = [
  ['draft', 0.04],
  ['private', 0.02],
  ['pending', 0.02],
];

function demoEvent(dice: Dice, now: DateTime, context: EventContext): NewRecord<EventDoc> {
  const online = dice.chance(0.05);
  const venue = dice.pick(context.venues);
  const city = venue.city;
  const categoryKey = dice.pick([...context.categories.rootOf.keys()]);
  const type = dice.pick(catalog.EVENT_TYPES[categoryKey] ?? catalog.EVENT_TYPES.family!);
  const organizers = dice.chance(0.75)
    ? [...new Set([dice.pick(context.organizers), ...(dice.chance(0.2) ? [dice.pick(context.organizers)] : [])])]
    : [];
  const tagKeys = new Set<string>(online ? ['online'] : []);
  for (let n = dice.int(0, 3); n > 0; n--) tagKeys.add(dice.pick(catalog.TAGS).key);
  const free = tagKeys.has('free') || dice.chance(0.3);

  // A third in the past, the rest within the coming year; evenings mostly, some all-day.
  const day = now
    .setZone(city.zone)
    .startOf('day')
    .plus({ days: dice.chance(0.35) ? -dice.int(1, 365) : dice.int(0, 365) });
  const allDay = dice.chance(0.1);
  const start = allDay
    ? day
    : day.set({ hour: dice.pick([10, 14, 18, 19, 20, 20, 21]), minute: dice.pick([0, 0, 30]) });
  const end = allDay
    ? day.plus({ days: dice.pick([0, 0, 1, 2]) })
    : start.plus({ minutes: dice.pick([60, 90, 120, 180, 240]) });
  const format = 'yyyy-MM-dd HH:mm:ss';
  const dates = resolveEventDates(
    { start_date: start.toFormat(format), end_date: end.toFormat(format), timezone: city.zone, all_day: allDay },
    null,
    'UTC',
  );

  const status =
    STATUSES.find(([, p]) => dice.chance(p))?.[0] ??
    (start > now.plus({ days: 300 }) && dice.chance(0.2) ? 'future' : 'publish');
  const organizerName = organizers[0]?.name ?? city.name[city.lang];
  const venueName = (lang: Language) => (online ? catalog.ONLINE_VENUE[lang] : venue.name);
  const description = dice.pick(catalog.EVENT_DESCRIPTIONS);
  const texts = (lang: Language) => {
    const values = {
      type: type[lang].toLowerCase(),
      venue: venueName(lang),
      city: city.name[lang],
      organizer: organizerName,
    };
    return {
      title: online
        ? `${type[lang]} (${catalog.TAGS.find((tag) => tag.key === 'online')?.name[lang]})`
        : catalog.EVENT_TITLE[lang](type[lang], venue.name),
      description: richText(description[lang], values),
      excerpt: richText(`<p>${catalog.EVENT_EXCERPTS[lang]}</p>`, { ...values, type: type[lang] }),
    };
  };
  const translated = dice.chance(0.5)
    ? LANGUAGES.filter((lang) => lang !== city.lang && (dice.chance(0.7) || lang === 'en'))
    : [];
  const country = catalog.COUNTRIES[city.country] as (typeof catalog.COUNTRIES)[string];
  const root = context.categories.rootOf.get(categoryKey) as string;
  return {
    lang: city.lang,
    content: {
      ...texts(city.lang),
      author: 1,
      image: dice.chance(0.3) ? `https://images.example.org/events/${slugify(type.en)}-${dice.int(1, 40)}.jpg` : null,
      status,
      date: status === 'future' ? start.minus({ days: 30 }).toJSDate() : publishedBefore(dice, now),
      ...dates,
      cost: free
        ? catalog.FREE_COST[city.lang]
        : country.currency.replace('#', String(dice.pick([5, 8, 10, 12, 15, 20, 25, 35, 50]))),
      website: dice.chance(0.4) ? `https://tickets.example.org/${slugify(type.en)}` : null,
      show_map: !online,
      show_map_link: !online,
      hide_from_listings: dice.chance(0.01),
      sticky: dice.chance(0.01),
      featured: dice.chance(0.05),
      ticketed: !free && dice.chance(0.5),
      post_parent: 0,
      passwordHash: dice.chance(0.01) ? context.passwordHash : null,
      venues: online ? [] : [venue.id],
      organizers: organizers.map((o) => o.id),
      categories: [
        ...new Set([context.categories.byKey.get(categoryKey) as number, context.categories.byKey.get(root) as number]),
      ],
      tags: [...tagKeys].map((key) => context.tags.get(key) as number),
    },
    translations: Object.fromEntries(translated.map((lang) => [lang, texts(lang)])),
  };
}
