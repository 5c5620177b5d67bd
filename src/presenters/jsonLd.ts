import { DateTime } from 'luxon';
import type { CostDetails } from '../domain/cost';
import { plainText } from '../domain/html';

/** The parts of an API venue the schema.org `location` uses. */
export interface JsonLdVenue {
  venue: string;
  url?: string;
  address?: string | null;
  city?: string | null;
  province?: string | null;
  state?: string | null;
  stateprovince?: string | null;
  zip?: string | null;
  country?: string | null;
  phone?: string | null;
  website?: string | null;
  geo_lat?: number | null;
  geo_lng?: number | null;
}

/** The parts of an API organizer the schema.org `organizer` uses. */
export interface JsonLdOrganizer {
  organizer: string;
  url?: string;
  phone?: string | null;
  email?: string | null;
  website?: string | null;
}

/** The parts of an API event (as presented) that the schema.org object is built from. */
export type JsonLdEventSource = {
  title: string;
  description: string | null;
  image: false | { url: string };
  url: string;
  all_day: boolean;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  cost_details: CostDetails;
  venue: JsonLdVenue | JsonLdVenue[];
  organizer: JsonLdOrganizer[];
};

const SCHEMA = 'https://schema.org';

// Currency symbols with one obvious ISO 4217 code; other symbols are left without a currency.
const CURRENCY_CODES: Record<string, string> = {
  $: 'USD',
  US$: 'USD',
  C$: 'CAD',
  CA$: 'CAD',
  A$: 'AUD',
  AU$: 'AUD',
  NZ$: 'NZD',
  HK$: 'HKD',
  S$: 'SGD',
  MX$: 'MXN',
  R$: 'BRL',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₩': 'KRW',
  '₽': 'RUB',
  '₺': 'TRY',
};

/** Drops null, undefined, empty strings and empty objects, so the JSON-LD carries only known facts. */
function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === null || value === undefined || value === '') continue;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).every((k) => k.startsWith('@')))
      continue;
    out[key] = value;
  }
  return out as Partial<T>;
}

/**
 * An event bound for schema.org: the day of an all-day event (`2030-05-10`, as Google's event
 * data asks), else the instant with the offset it has in the event's zone. Built from the UTC
 * time: a local time in the hour clocks repeat in autumn names two instants.
 */
/** A date as schema.org takes it: an all-day event's day, else its local time with its offset. */
export function isoDate(
  event: Pick<
    JsonLdEventSource,
    'all_day' | 'start_date' | 'end_date' | 'utc_start_date' | 'utc_end_date' | 'timezone'
  >,
  bound: 'start' | 'end',
): string {
  if (event.all_day) return event[`${bound}_date`].slice(0, 10);
  // `yyyy-MM-dd HH:mm:ss` in UTC: read by Date.parse as ISO 8601 (luxon's fromFormat costs ~40 µs).
  const utc = DateTime.fromMillis(Date.parse(`${event[`utc_${bound}_date`].replace(' ', 'T')}Z`), { zone: 'utc' });
  const local = utc.setZone(event.timezone);
  // ISO 8601 offsets have no seconds: a local mean time's (-04:56:02) is given in UTC instead.
  return (Number.isInteger(local.offset) ? local : utc).toISO({ suppressMilliseconds: true }) as string;
}

function place(venue: JsonLdVenue): Record<string, unknown> {
  return compact({
    '@type': 'Place',
    name: venue.venue,
    url: venue.website || venue.url,
    telephone: venue.phone,
    address: compact({
      '@type': 'PostalAddress',
      streetAddress: venue.address,
      addressLocality: venue.city,
      addressRegion: venue.stateprovince || venue.state || venue.province,
      postalCode: venue.zip,
      addressCountry: venue.country,
    }),
    geo:
      typeof venue.geo_lat === 'number' && typeof venue.geo_lng === 'number'
        ? { '@type': 'GeoCoordinates', latitude: venue.geo_lat, longitude: venue.geo_lng }
        : undefined,
  });
}

function person(organizer: JsonLdOrganizer): Record<string, unknown> {
  return compact({
    '@type': 'Person',
    name: organizer.organizer,
    telephone: organizer.phone,
    email: organizer.email,
    url: organizer.website || organizer.url,
  });
}

function offers(event: JsonLdEventSource): Record<string, unknown>[] | undefined {
  const { values, currency_symbol: symbol } = event.cost_details;
  if (values.length === 0) return undefined;
  const currency = /^[A-Z]{3}$/.test(symbol) ? symbol : CURRENCY_CODES[symbol];
  return values.map((price) => compact({ '@type': 'Offer', price, priceCurrency: currency, url: event.url }));
}

/** The schema.org `Event` of a single-event read (`json_ld`), built from the presented event. */
export function eventJsonLd(event: JsonLdEventSource): Record<string, unknown> {
  const venues = Array.isArray(event.venue) ? event.venue : [event.venue];
  const locations = venues.map(place);
  return compact({
    '@context': SCHEMA,
    '@type': 'Event',
    name: event.title,
    description: plainText(event.description),
    image: event.image ? event.image.url : undefined,
    url: event.url,
    // Only a venue says the event happens in a place; without one the mode is not known.
    eventAttendanceMode: locations.length > 0 ? `${SCHEMA}/OfflineEventAttendanceMode` : undefined,
    eventStatus: `${SCHEMA}/EventScheduled`,
    startDate: isoDate(event, 'start'),
    endDate: isoDate(event, 'end'),
    location: locations.length === 0 ? undefined : locations.length === 1 ? locations[0] : locations,
    organizer: event.organizer.length > 0 ? event.organizer.map(person) : undefined,
    offers: offers(event),
  });
}
