import type { DateTime } from 'luxon';
import { LANGUAGES, type Language } from '../../../config';
import { slugify } from '../../domain/slug';
import type { Services } from '../../services/container';
import type { NewRecord } from '../../storage/documentBuilder';
import type { OrganizerDoc, TermDoc, VenueDoc } from '../../storage/stores';
import * as catalog from './demoCatalog';
import { fill, richText, type Dice } from './demoDice';
import * as places from './demoPlaces';

/** Demo data: categories and tags (reused when they exist), venues and organizers. */

export interface SeededVenue {
  id: number;
  city: places.City;
  name: string;
}

const POST_DEFAULTS = { author: 1, image: null, excerpt: null } as const;

export interface Terms {
  byKey: Map<string, number>;
  /** Leaf (or childless root) key → its root's key. */
  rootOf: Map<string, string>;
}

/** Creates the terms missing (looked up by English slug) and returns every term's ID by key. */
async function seedTermLevel(
  services: Services,
  kind: 'categories' | 'tags',
  defs: { key: string; name: places.Texts; parent?: number }[],
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

export async function seedCategories(services: Services, queueIndexing: boolean): Promise<Terms> {
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

export function seedTags(services: Services, queueIndexing: boolean): Promise<Map<string, number>> {
  return seedTermLevel(services, 'tags', catalog.TAGS, queueIndexing);
}

export function publishedBefore(dice: Dice, now: DateTime): Date {
  return now.minus({ days: dice.int(30, 400), minutes: dice.int(0, 1439) }).toJSDate();
}

export async function seedVenues(
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
    const city = places.CITIES[(i * 5) % places.CITIES.length] as places.City;
    const country = places.COUNTRIES[city.country] as (typeof places.COUNTRIES)[string];
    const names = places.VENUE_NAMES[city.lang];
    const name = names.pattern(dice.pick(names.first), dice.pick(names.second));
    const street = places.STREETS[city.lang];
    const description = dice.pick(places.VENUE_DESCRIPTIONS);
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

export async function seedOrganizers(
  services: Services,
  dice: Dice,
  count: number,
  now: DateTime,
  queueIndexing: boolean,
): Promise<{ id: number; name: string }[]> {
  const names: string[] = [];
  const records: NewRecord<OrganizerDoc>[] = [];
  for (let i = 0; i < count; i++) {
    const city = dice.pick(places.CITIES);
    const name = fill(dice.pick(places.ORGANIZER_NAMES[city.lang]), { city: city.name[city.lang] });
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
        phone: dice.pattern((places.COUNTRIES[city.country] as (typeof places.COUNTRIES)[string]).phone),
        website: `https://${slug}.example.org`,
      },
    });
  }
  const ids = await services.stores.organizers.createMany(records, { queueIndexing });
  return names.map((name, i) => ({ id: ids[i] as number, name }));
}
