import ical, { ICalEventStatus, type ICalEventData } from 'ical-generator';
import { readableText } from '../domain/html';
import { feedRecurrenceLines, type DtstartForm } from './feedRecurrence';
import { vtimezone } from './vtimezone';

type ApiRecord = Record<string, unknown>;

/** An API event (as lists and reads present it) and what the feed adds to it. */
export interface FeedEntry {
  event: ApiRecord;
  /** Grows with each change of the event (its sync version: see src/storage/syncQueue.ts). */
  sequence: number;
  /** A series read: its RRULE/RDATE/EXDATE lines, as stored. */
  recurrence?: string[];
  /** One changed occurrence of a series read: its original start as presented (RECURRENCE-ID). */
  originalStart?: { start_date: string; utc_start_date: string };
}

const CRLF = '\r\n';
const PRODID = { company: 'events-calendar', product: 'calendar-events-v1', language: 'EN' };

/** A presented date (`2026-03-29 10:00:00`) as the instant of that time in UTC. */
const utcDate = (text: unknown): Date | null =>
  typeof text === 'string' && text.length >= 10 ? new Date(`${text.replace(' ', 'T')}Z`) : null;
/** The day of a presented wall-clock date, as the UTC midnight ical-generator writes dates from. */
const dayOf = (text: unknown, plusDays = 0): Date => {
  const [year, month, day] = String(text).slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day! + plusDays));
};

/** `BEGIN:VCALENDAR`, its properties and the VTIMEZONE of each of `zones`: what comes before the events. */
export function calendarHead(name: string, zones: ReadonlySet<string>): string {
  const head = ical({ prodId: PRODID, name }).toString();
  const timezones = [...zones].flatMap((zone) => vtimezone(zone) ?? []).join('');
  return head.slice(0, head.lastIndexOf('END:VCALENDAR')) + fold(timezones);
}

export const CALENDAR_END = `END:VCALENDAR${CRLF}`;

function venueOf(event: ApiRecord): ApiRecord | undefined {
  const venue = Array.isArray(event.venue) ? event.venue[0] : event.venue;
  return venue && typeof venue === 'object' ? (venue as ApiRecord) : undefined;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

function location(venue: ApiRecord | undefined): ICalEventData['location'] {
  if (!venue) return null;
  const address = [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
    .map(text)
    .filter(Boolean)
    .join(', ');
  const lat = venue.geo_lat;
  const lon = venue.geo_lng;
  const geo = typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : undefined;
  return { title: text(venue.venue), ...(address ? { address } : {}), ...(geo ? { geo } : {}) };
}

/** The first organizer with an email: ORGANIZER is a calendar user's address (RFC 5545 3.8.4.3). */
function organizer(event: ApiRecord): ICalEventData['organizer'] {
  const organizers = Array.isArray(event.organizer) ? (event.organizer as ApiRecord[]) : [];
  const reachable = organizers.find((one) => text(one.email) && text(one.organizer));
  // A parameter value cannot hold a double quote (RFC 5545 3.1): it would end the value.
  return reachable ? { name: text(reachable.organizer).replace(/"/g, "'"), email: text(reachable.email) } : null;
}

const names = (terms: unknown): { name: string }[] =>
  (Array.isArray(terms) ? (terms as ApiRecord[]) : []).flatMap((term) =>
    text(term.name) ? [{ name: text(term.name) }] : [],
  );

/**
 * Start and end as RFC 5545 wants them: all-day events as dates with DTEND the day after the last
 * (exclusive); others at their wall-clock time with TZID when the zone has a VTIMEZONE, else in UTC.
 */
function dates(event: ApiRecord, form: DtstartForm): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  switch (form) {
    case 'date':
      return { allDay: true, start: dayOf(event.start_date), end: dayOf(event.end_date, 1) };
    case 'utc':
      return { start: utcDate(event.utc_start_date)!, end: utcDate(event.utc_end_date)! };
    case 'zone':
      // With `timezone`, ical-generator writes a Date's UTC fields after the TZID: the wall clock.
      return { timezone: text(event.timezone), start: utcDate(event.start_date)!, end: utcDate(event.end_date)! };
  }
}

/** How an event's dates are written: a date, or with TZID when `zones` has the zone's VTIMEZONE, else in UTC. */
function dtstartForm(event: ApiRecord, zones: ReadonlySet<string>): DtstartForm {
  if (event.all_day === true) return 'date';
  const zone = text(event.timezone);
  return zones.has(zone) && vtimezone(zone) !== null ? 'zone' : 'utc';
}

/** A series' recurrence lines in the form of its DTSTART (feedRecurrence.ts). */
function recurrenceLines(event: ApiRecord, lines: string[], form: DtstartForm): string[] {
  const series = {
    start: utcDate(event.utc_start_date)!,
    end: utcDate(event.utc_end_date)!,
    timezone: text(event.timezone),
    all_day: event.all_day === true,
  };
  return feedRecurrenceLines(lines, series, form);
}

/**
 * A VEVENT's text with a series' recurrence lines before its end. Not ical-generator's
 * `repeating`, which writes a lone line that is not a rule (a series of RDATEs alone) as
 * `RRULE:RDATE…`, a rule without FREQ that parsers refuse or drop with the dates.
 */
function withRecurrence(vevent: string, lines: string[]): string {
  if (lines.length === 0) return vevent;
  const end = vevent.lastIndexOf('END:VEVENT');
  return `${vevent.slice(0, end)}${lines.join(CRLF)}${CRLF}${vevent.slice(end)}`;
}

/** `event-{id}@{host}`: stable for the record, whichever feed or language shows it. */
export const eventUid = (id: unknown, host: string): string => `event-${String(id)}@${host}`;

/**
 * The VEVENT of each of `entries`, folded at 75 octets with CRLF and escaped by ical-generator: no
 * field content (a newline, `;`, `,`, `BEGIN:VEVENT`) can end a property or a component early.
 * DTSTAMP is the event's last change (RFC 5545 3.8.7.2, a calendar without METHOD), so the same
 * event gives the same text. Times are written with TZID in `zones` (the calendar's VTIMEZONEs),
 * in UTC otherwise.
 */
export function veventTexts(entries: FeedEntry[], uidHost: string, zones: ReadonlySet<string>): string[] {
  if (entries.length === 0) return [];
  const calendar = ical({ prodId: PRODID });
  const recurrences: string[][] = [];
  for (const entry of entries) {
    const { event, sequence } = entry;
    const modified = utcDate(event.modified_utc) ?? new Date(0);
    const form = dtstartForm(event, zones);
    recurrences.push(entry.recurrence ? recurrenceLines(event, entry.recurrence, form) : []);
    calendar.createEvent({
      id: eventUid(event.id, uidHost),
      ...(entry.originalStart ? { recurrenceId: dates({ ...event, ...entry.originalStart }, form).start } : {}),
      sequence,
      stamp: modified,
      lastModified: modified,
      ...dates(event, form),
      summary: typeof event.title === 'string' ? event.title : '',
      description: readableText(event.description as string | null) || null,
      url: text(event.url) || null,
      location: location(venueOf(event)),
      organizer: organizer(event),
      categories: [...names(event.categories), ...names(event.tags)],
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.events().map((event, i) => fold(withRecurrence(event.toString(), recurrences[i]!)));
}

/** The VEVENTs of `entries` (veventTexts), one after the other. */
export const vevents = (entries: FeedEntry[], uidHost: string, zones: ReadonlySet<string>): string =>
  veventTexts(entries, uidHost, zones).join('');

/** A content line cut before any character that would take it past 75 octets (RFC 5545 3.1). */
function foldLine(line: string): string {
  if (line.length <= 75 / 3 || Buffer.byteLength(line) <= 75) return line;
  const octets = Buffer.from(line);
  const parts: string[] = [];
  let start = 0;
  // 75 octets, then 74 after the continuation's leading space.
  for (let limit = 75; octets.length - start > limit; limit = 74) {
    let end = start + limit;
    // Back to the first octet of the character the limit falls in (continuations are 10xxxxxx).
    while ((octets[end]! & 0xc0) === 0x80) end--;
    parts.push(octets.toString('utf8', start, end));
    start = end;
  }
  parts.push(octets.toString('utf8', start));
  return parts.join(`${CRLF} `);
}

/**
 * Folds content lines longer than 75 octets (RFC 5545 3.1), never inside a character. Not
 * ical-generator's own fold, which made a TextEncoder per character: 0.5 ms an event.
 */
export const fold = (text: string): string => text.split(CRLF).map(foldLine).join(CRLF);
