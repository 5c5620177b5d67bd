import { LANGUAGES, type Language } from '../config';
import { withDescendantCategories } from '../src/services/commands/references';
import type { Services } from '../src/services/container';

/** Values drawn from the seeded data, so the scenarios ask for things that exist. */
export interface Samples {
  eventIds: number[];
  words: Record<Language, string[]>;
  places: { lat: number; lng: number }[];
  venueIds: number[];
  categoryIds: number[];
  /** Each category with its descendants: the IDs the API's category filter matches. */
  categoryFamilies: Map<number, number[]>;
}

/** The same requests, addressed to the API and to the baseline. */
export interface ScenarioPaths {
  api: string[];
  baseline: string[];
}

const ROOT = '/calendar/events/v1';
const MAX_PATHS = 2_000;
const DAY_MS = 24 * 3600 * 1000;

function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Frequent title words of a language: searches that hit many events, as users' searches do. */
async function titleWords(services: Services, lang: Language): Promise<string[]> {
  const docs = await services.stores.events.docs.find({ lang }).limit(400).toArray();
  const counts = new Map<string, number>();
  for (const doc of docs) {
    for (const word of String(doc.title ?? '')
      .toLowerCase()
      .split(/[^\p{L}]+/u)) {
      if (word.length >= 4) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([word]) => word);
}

export async function drawSamples(services: Services, seed: number): Promise<Samples> {
  const random = seededRandom(seed);
  const { events, venues, categories } = services.stores;
  const [eventIds, venueDocs, categoryIds, ...words] = await Promise.all([
    events.docs.distinct('id', { lang: 'en', status: 'publish', passwordHash: null }) as Promise<number[]>,
    venues.docs.find({ lang: 'en', geo_lat: { $ne: null } } as never).toArray(),
    categories.docs.distinct('id', {}) as Promise<number[]>,
    ...LANGUAGES.map((lang) => titleWords(services, lang)),
  ]);
  const places = new Map<string, { lat: number; lng: number }>();
  for (const venue of venueDocs) {
    const point = { lat: venue.geo_lat as number, lng: venue.geo_lng as number };
    places.set(`${point.lat.toFixed(1)},${point.lng.toFixed(1)}`, point);
  }
  const families = await Promise.all(categoryIds.map((id) => withDescendantCategories(services, [id])));
  return {
    eventIds: shuffled(eventIds, random).slice(0, MAX_PATHS),
    words: Object.fromEntries(LANGUAGES.map((lang, i) => [lang, words[i] ?? []])) as Record<Language, string[]>,
    places: [...places.values()],
    venueIds: venueDocs.map((venue) => venue.id),
    categoryIds,
    categoryFamilies: new Map(categoryIds.map((id, i) => [id, families[i] ?? [id]])),
  };
}

const prefix = (lang: Language) => (lang === 'en' ? '' : `/${lang}`);

export function readPaths(samples: Samples): ScenarioPaths {
  return {
    api: samples.eventIds.map((id) => `${ROOT}/events/${id}`),
    baseline: samples.eventIds.map((id) => `/events/${id}?lang=en`),
  };
}

const PATHS_PER_SCENARIO = 600;

/** Draws from the scenario's seeded sequence: a number in [0, 1), or one of `items` (undefined if none). */
interface Draw {
  random: () => number;
  pick: <T>(items: T[]) => T | undefined;
}

/**
 * A scenario's requests: `build` makes each one's API path and comparison path in a language
 * (each language in turn), or null when the samples give it nothing to ask.
 */
function samplePaths(
  seed: number,
  build: (lang: Language, draw: Draw) => { api: string; baseline: string } | null,
): ScenarioPaths {
  const random = seededRandom(seed);
  const draw: Draw = {
    random,
    pick: (items) => (items.length ? items[Math.floor(random() * items.length)] : undefined),
  };
  const paths: ScenarioPaths = { api: [], baseline: [] };
  for (let i = 0; i < PATHS_PER_SCENARIO; i++) {
    const built = build(LANGUAGES[i % LANGUAGES.length] as Language, draw);
    if (!built) continue;
    paths.api.push(built.api);
    paths.baseline.push(built.baseline);
  }
  return paths;
}

export function searchPaths(samples: Samples, seed: number): ScenarioPaths {
  return samplePaths(seed + 1, (lang, { pick }) => {
    const word = pick(samples.words[lang]);
    if (word === undefined) return null;
    const q = encodeURIComponent(word);
    return { api: `${prefix(lang)}${ROOT}/events?search=${q}`, baseline: `/search?search=${q}&lang=${lang}` };
  });
}

/** Around a city, the next 90 days, one category (with its descendants, as the API reads it), nearest first. */
export function geoPaths(samples: Samples, seed: number, now = new Date()): ScenarioPaths {
  const from = now.toISOString().slice(0, 10);
  const to = new Date(now.getTime() + 90 * DAY_MS).toISOString().slice(0, 10);
  return samplePaths(seed + 2, (lang, { pick }) => {
    const place = pick(samples.places);
    const category = pick(samples.categoryIds);
    if (!place || category === undefined) return null;
    return {
      api:
        `${prefix(lang)}${ROOT}/events?geoloc_lat=${place.lat}&geoloc_lng=${place.lng}&geoloc_radius=50&geoloc_unit=km` +
        `&orderby=distance&start_date=${from}&end_date=${to}&categories=${category}`,
      baseline:
        `/geo?lat=${place.lat}&lng=${place.lng}&radius=50&unit=km&from=${from}&to=${to}` +
        `&categories=${(samples.categoryFamilies.get(category) ?? [category]).join(',')}&lang=${lang}`,
    };
  });
}

/** Facets asked for by the facets scenario: four fields, as a discovery page's filter bar shows them. */
export const BENCH_FACETS = 'categories,tags,venue,featured';

/**
 * The upcoming events of one category, with facets on four fields and the day histogram (the API),
 * against the same list without them (also the API: the cost of the extras alone).
 */
export function facetPaths(samples: Samples, seed: number): ScenarioPaths {
  return samplePaths(seed + 4, (lang, { pick }) => {
    const category = pick(samples.categoryIds);
    if (category === undefined) return null;
    const list = `${prefix(lang)}${ROOT}/events?categories=${category}`;
    return { api: `${list}&facets=${BENCH_FACETS}&histogram=day`, baseline: list };
  });
}

/** Type-ahead as typed: the first two to five letters of frequent title words, in each language. */
export function suggestPaths(samples: Samples, seed: number): ScenarioPaths {
  return samplePaths(seed + 5, (lang, { pick, random }) => {
    const word = pick(samples.words[lang]);
    if (word === undefined) return null;
    const typed = encodeURIComponent(word.slice(0, 2 + Math.floor(random() * 4)));
    return { api: `${prefix(lang)}${ROOT}/suggest?search=${typed}`, baseline: `/suggest?search=${typed}&lang=${lang}` };
  });
}

/** Event creations: a future date, a seeded venue and category. */
export function writeBodies(samples: Samples, seed: number, now = new Date()): Record<string, unknown>[] {
  const random = seededRandom(seed + 3);
  const pick = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)];
  return Array.from({ length: 200 }, (_, i) => {
    const start = new Date(now.getTime() + (1 + Math.floor(random() * 200)) * DAY_MS);
    const venue = pick(samples.venueIds);
    const category = pick(samples.categoryIds);
    return {
      title: `Bench write ${i}`,
      description: '<p>Written by the benchmark to measure write latency and search lag.</p>',
      start_date: start.toISOString().slice(0, 16).replace('T', ' '),
      end_date: new Date(start.getTime() + 2 * 3600 * 1000).toISOString().slice(0, 16).replace('T', ' '),
      ...(venue ? { venue } : {}),
      ...(category ? { categories: [category] } : {}),
    };
  });
}

type Json = Record<string, unknown>;

export type ParityKind = 'read' | 'list' | 'same-list' | 'suggest';

const eventIds = (body: Json) => ((body.events as Json[] | undefined) ?? []).map((event) => event.id).join(',');

/** Whether two answers to the same request agree, or what differs. */
function difference(kind: ParityKind, api: Json, base: Json): string | null {
  switch (kind) {
    case 'read':
      return api.id === base.id ? null : `API id ${String(api.id)} vs baseline ${String(base.id)}`;
    case 'list':
    case 'same-list': {
      // The baseline answers Elasticsearch's total ({value}), the list without extras the API's.
      const baseTotal = kind === 'list' ? (base.total as { value?: number } | undefined)?.value : base.total;
      if (eventIds(api) === eventIds(base) && api.total === baseTotal) return null;
      return `API [${eventIds(api)}] of ${String(api.total)} vs [${eventIds(base)}] of ${String(baseTotal)}`;
    }
    case 'suggest': {
      // The baseline answers each kind's hits as Elasticsearch ranked them; the API merges them.
      const found = new Set(((base.hits as number[][] | undefined) ?? []).flat());
      const ids = ((api.suggestions as Json[] | undefined) ?? []).map((s) => s.id as number);
      const all = ids.every((id) => found.has(id)) && ids.length === Math.min(8, found.size);
      return all ? null : `API [${ids.join(',')}] vs baseline hits [${[...found].join(',')}]`;
    }
  }
}

/** Whether the API and the baseline answer the first requests alike. */
export async function checkParity(
  apiUrl: string,
  baselineUrl: string,
  paths: ScenarioPaths,
  kind: ParityKind,
): Promise<string | null> {
  for (let i = 0; i < Math.min(5, paths.api.length); i++) {
    const [api, base] = await Promise.all([
      fetch(`${apiUrl}${paths.api[i]}`).then((res) => res.json() as Promise<Json>),
      fetch(`${baselineUrl}${paths.baseline[i]}`).then((res) => res.json() as Promise<Json>),
    ]);
    const problem = difference(kind, api, base);
    if (problem) return `${paths.api[i]}: ${problem}`;
  }
  return null;
}
