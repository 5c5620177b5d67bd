import type { Language } from '../../config';
import { parseCost } from '../domain/cost';
import { boundedMemo, deepFreeze } from '../lib/memo';
import { presentEventDates } from '../domain/eventDates';
import { presentImage, presentRecord, type PresentEnv } from './environment';
import type { StoredRecord } from '../storage/storedRecord';
import type { EventDoc } from '../storage/stores';

type ApiRecord = Record<string, unknown>;

/** The already-presented records an event links to, by ID (missing IDs are not shown). */
export interface EventLinks {
  venues: Map<number, ApiRecord>;
  organizers: Map<number, ApiRecord>;
  categories: Map<number, ApiRecord>;
  tags: Map<number, ApiRecord>;
}

const pick = (ids: number[] | undefined, from: Map<number, ApiRecord>): ApiRecord[] =>
  (ids ?? []).flatMap((id) => (from.has(id) ? [from.get(id)!] : []));

/** The site's host, parsed once per site URL (an event shows it in each of its languages). */
const hostOf = boundedMemo(
  10,
  (url: string) => url,
  (url) => new URL(url).host,
);

/** `example.com?id=12`, as The Events Calendar identifies events across sites. */
function globalId(siteUrl: string, id: number): string {
  return `${hostOf(siteUrl)}?id=${id}`;
}

/** parseCost, remembered per stored cost (frozen: its `cost_details` is shared). */
const presentCost = boundedMemo(
  1_000,
  (stored: Parameters<typeof parseCost>[0]) => `${typeof stored}:${String(stored)}`,
  (stored) => deepFreeze(parseCost(stored)),
);

/**
 * An event's own map setting, else its venue's; with a venue and no setting anywhere a map is
 * shown (as The Events Calendar defaults), without a venue there is nothing to map.
 */
function mapSetting(
  own: boolean | null | undefined,
  venue: ApiRecord | undefined,
  field: 'show_map' | 'show_map_link',
): boolean {
  if (typeof own === 'boolean') return own;
  if (!venue) return false;
  return typeof venue[field] === 'boolean' ? (venue[field] as boolean) : true;
}

/**
 * A stored event as the API event of CONTRACT part 3, in `lang` (else its original language).
 * Pure: linked venues, organizers and terms come presented in `links`. Never the password.
 */
export function presentEvent(
  record: StoredRecord<EventDoc>,
  lang: Language,
  env: PresentEnv,
  links: EventLinks,
): ApiRecord {
  const id = globalId(env.siteUrl, record.id);
  return presentRecord('event', record, lang, env, (doc, url) => {
    const venues = pick(doc.venues, links.venues);
    return {
      global_id: id,
      global_id_lineage: [id],
      title: doc.title,
      description: doc.description ?? null,
      excerpt: doc.excerpt ?? null,
      image: presentImage(doc.image),
      ...presentEventDates({ start: doc.start, end: doc.end, timezone: doc.timezone, all_day: doc.all_day ?? false }),
      ...presentCost(doc.cost),
      website: doc.website || url,
      show_map: mapSetting(doc.show_map, venues[0], 'show_map'),
      show_map_link: mapSetting(doc.show_map_link, venues[0], 'show_map_link'),
      hide_from_listings: doc.hide_from_listings ?? false,
      sticky: doc.sticky ?? false,
      featured: doc.featured ?? false,
      ticketed: doc.ticketed ?? false,
      post_parent: doc.post_parent ?? 0,
      categories: pick(doc.categories, links.categories),
      tags: pick(doc.tags, links.tags),
      venue: venues.length === 0 ? [] : venues.length === 1 ? venues[0] : venues,
      organizer: pick(doc.organizers, links.organizers),
    };
  });
}
