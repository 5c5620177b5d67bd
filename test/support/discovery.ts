import { expect } from 'chai';
import { DateTime } from 'luxon';
import { api, type RequestOptions } from './api';

/**
 * Expected facets, histogram buckets and map tiles computed from listed events themselves (every
 * page of a list), to compare with what the API aggregates in the index.
 */
export type ApiEvent = Record<string, any>;

export async function allListed(query: string, options?: RequestOptions): Promise<ApiEvent[]> {
  const events: ApiEvent[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/events?${query}&per_page=50&page=${page}`, options);
    expect(res.status, `GET /events?${query}: ${JSON.stringify(res.body)}`).to.equal(200);
    events.push(...res.body.events);
    if (page >= res.body.total_pages) return events;
  }
}

const venuesOf = (event: ApiEvent): ApiEvent[] => (Array.isArray(event.venue) ? event.venue : [event.venue]);

const LINKS: Record<string, (event: ApiEvent) => ApiEvent[]> = {
  categories: (event) => event.categories,
  tags: (event) => event.tags,
  venue: (event) => venuesOf(event),
  organizer: (event) => event.organizer,
};

const NAME_FIELD: Record<string, string> = { categories: 'name', tags: 'name', venue: 'venue', organizer: 'organizer' };

/** `{id, slug, name, count}` of a link facet over `events`, by count then name, at most 50. */
export function linkFacetOf(facet: string, events: ApiEvent[], lang = 'en') {
  const entries = new Map<number, { id: number; slug: string; name: string; count: number }>();
  for (const event of events) {
    for (const linked of LINKS[facet]!(event)) {
      const entry = entries.get(linked.id) ?? {
        id: linked.id,
        slug: linked.slug,
        name: linked[NAME_FIELD[facet]!],
        count: 0,
      };
      entry.count += 1;
      entries.set(linked.id, entry);
    }
  }
  return [...entries.values()]
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, lang) || a.id - b.id)
    .slice(0, 50);
}

export function flagFacetOf(facet: 'featured' | 'ticketed', events: ApiEvent[]) {
  const counts = [false, true]
    .map((value) => ({ value, count: events.filter((event) => event[facet] === value).length }))
    .filter((entry) => entry.count > 0);
  return counts.sort((a, b) => b.count - a.count || Number(a.value) - Number(b.value));
}

/** Histogram buckets of the events' start instants in `zone`, as luxon (not Elasticsearch) places them. */
export function histogramOf(events: ApiEvent[], interval: 'day' | 'week' | 'month', zone: string) {
  const counts = new Map<string, number>();
  for (const event of events) {
    const start = DateTime.fromFormat(event.utc_start_date, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' }).setZone(zone);
    const key = start.startOf(interval).toFormat('yyyy-MM-dd HH:mm:ss');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([start, count]) => ({ start, count }));
}

/** The slippy-map tile of a point at zoom `z` (the OpenStreetMap formula). */
export function tileOf(lat: number, lng: number, z: number): string {
  const n = 2 ** z;
  const x = Math.min(n - 1, Math.floor(((lng + 180) / 360) * n));
  const rad = (lat * Math.PI) / 180;
  const y = Math.min(n - 1, Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n));
  return `${z}/${x}/${y}`;
}

/**
 * The published venues with coordinates each listed event shows: what geo filters and tiles use
 * (a draft venue shown to its readers is never placed on the map).
 */
export function placesOf(event: ApiEvent): { lat: number; lng: number }[] {
  return venuesOf(event)
    .filter((venue) => venue && venue.status === 'publish' && typeof venue.geo_lat === 'number')
    .map((venue) => ({ lat: venue.geo_lat, lng: venue.geo_lng }));
}

/** Events per tile: an event counts once in each tile one of its places lies in. */
export function tilesOf(events: ApiEvent[], z: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    for (const tile of new Set(placesOf(event).map((p) => tileOf(p.lat, p.lng, z))))
      counts.set(tile, (counts.get(tile) ?? 0) + 1);
  }
  return counts;
}

/** Whether a point lies in the box, a left edge east of the right one crossing the antimeridian. */
export function inBox(p: { lat: number; lng: number }, [top, left, bottom, right]: number[]): boolean {
  if (p.lat > top! || p.lat < bottom!) return false;
  return left! <= right! ? p.lng >= left! && p.lng <= right! : p.lng >= left! || p.lng <= right!;
}
