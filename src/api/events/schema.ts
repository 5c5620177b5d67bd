import type BaseJoi from 'joi';
import { canonicalTimeZone } from '../../domain/dates';
import { Joi, id, idOrZero, MAX_LIST_ITEMS, text } from '../../http/params';
import { inputSchema } from '../../http/route';
import { organizerWriteSchema, type OrganizerWriteInput } from '../organizers/schema';
import { nameText, optionalFlag, optionalUrl, postWriteKeys, type PostWriteInput } from '../posts/postContent';
import { termName } from '../terms/schema';
import { venueWriteSchema, type VenueWriteInput } from '../venues/schema';

/** A link parameter (`venue`, `organizer`): IDs and inline records; 0, "", [] or null clears it. */
export type LinkInput<W> = number | '' | null | W | (number | W)[];

/** An event write, as validated: "" or null clears an optional field. */
export interface EventWriteInput extends PostWriteInput {
  title?: string;
  start_date?: string;
  end_date?: string;
  timezone?: string | null;
  all_day?: boolean | '' | null;
  cost?: string | number | null;
  website?: string | null;
  show_map?: boolean | '' | null;
  show_map_link?: boolean | '' | null;
  hide_from_listings?: boolean | '' | null;
  sticky?: boolean | '' | null;
  featured?: boolean | '' | null;
  ticketed?: boolean | '' | null;
  categories?: (number | string)[] | null;
  tags?: (number | string)[] | null;
  venue?: LinkInput<VenueWriteInput>;
  organizer?: LinkInput<OrganizerWriteInput>;
  post_parent?: number | null;
  recurrence?: string[] | null;
  password?: string | null;
}

/** The extra parameter of an event's single read or delete. */
export interface EventReadInput {
  password?: string;
}

/** Content lines of a recurrence, and the length of one (an RDATE line may list many dates). */
const MAX_RECURRENCE_LINES = 100;
const MAX_RECURRENCE_LINE = 20_000;

/** Records one write may create inline: each is a whole create (indexed, slugged). */
const MAX_INLINE_LINKS = 10;

/** A list of linked IDs and inline records, at most MAX_INLINE_LINKS of them inline. */
const linkList = (inline: ReturnType<typeof venueWriteSchema.fork>, kind: string) =>
  Joi.list()
    .items(Joi.alternatives().try(id(), inline))
    .max(MAX_LIST_ITEMS)
    .custom((links: unknown[], helpers) =>
      links.filter((link) => typeof link === 'object').length > MAX_INLINE_LINKS
        ? helpers.message({
            custom: `{{#label}} may create at most ${MAX_INLINE_LINKS} ${kind}s inline: create the others first and send their IDs`,
          })
        : links,
    );

const dateField = (what: string) =>
  Joi.dateInput().description(
    `${what}, in the event time zone unless the text carries an offset (YYYY-MM-DD HH:MM:SS, YYYY-MM-DD, ISO 8601, unix seconds, now/today/tomorrow/yesterday, +N days...)`,
  );

const flag = (what: string) =>
  optionalFlag(what).description(
    `${what} (true/false, 1/0, yes/no, on/off); default false; null or "" clears it (false)`,
  );

/** An inline venue or organizer: created and linked by the event write (CONTRACT part 4). */
const inlineVenue = venueWriteSchema.fork(['venue'], (schema) => schema.required());
const inlineOrganizer = organizerWriteSchema.fork(['organizer'], (schema) => schema.required());

const termRefs = (taxonomy: string) =>
  Joi.list()
    .single()
    .items(Joi.alternatives().try(id(), termName()))
    .max(MAX_LIST_ITEMS)
    .allow(null)
    .description(
      `Event ${taxonomy}: IDs, slugs or names (JSON array, a[]= repeats or a comma list); digits alone are an ID (a term named "2027" is linked by its ID); an unknown ID is rejected, an unknown name creates the term in the request language; [] or null clears them`,
    );

/** A minus before the first amount (`-5`, `$-5`, `USD -5`); `10 - 20` is a range. */
const NEGATIVE_COST = /^\s*(?:[A-Z]{0,3}\s*\p{Sc}|[A-Z]{3})?\s*[-\u2212]\s*\d/u;

/** Event write fields (interface.md 2.1, both revisions, plus ours); all optional here. */
export const eventWriteSchema = inputSchema<EventWriteInput>()({
  title: nameText(500, 'Event title (required on create; cannot be cleared)'),
  ...postWriteKeys('event'),
  start_date: dateField('Start date and time (required on create)'),
  end_date: dateField('End date and time (required on create; not before start_date)'),
  timezone: Joi.string()
    .trim()
    .max(64)
    .allow('', null)
    .custom((value: string, helpers) =>
      value === '' ? value : (canonicalTimeZone(value) ?? helpers.error('any.invalid')),
    )
    .messages({ 'any.invalid': '{{#label}} must be an IANA time zone such as Europe/Paris' })
    .description(
      'IANA time zone of the event, stored under its canonical name (default: the site time zone); changing only the zone keeps the local times; null or "" resets it',
    ),
  all_day: Joi.flag()
    .allow(null, '')
    .description(
      'Lasts the whole day: start snaps to 00:00:00, end to 23:59:59 (default false on create; kept on update unless sent; null or "" clears it)',
    ),
  cost: Joi.alternatives()
    // Text first: "12.50" stays the client's wording, not the number 12.5.
    .try(text(200).trim(), Joi.number().min(0).max(1e12))
    .custom((value: unknown, helpers) =>
      typeof value === 'string' && NEGATIVE_COST.test(value)
        ? helpers.message({ custom: '{{#label}} cannot be negative' })
        : value,
    )
    .allow(null)
    .description('Event cost: a number or text such as "$10", "10 €", "Free", "10 - 20 USD"; null or "" clears it'),
  website: optionalUrl('Event website (the event page URL is returned when unset)'),
  show_map: optionalFlag('Show a map (default: the venue setting)'),
  show_map_link: optionalFlag('Show a map link (default: the venue setting)'),
  hide_from_listings: flag('Hide from the calendar listings'),
  sticky: flag('Sticky in the calendar views'),
  featured: flag('Featured on the site'),
  ticketed: flag('The event sells tickets (ours)'),
  categories: termRefs('categories'),
  tags: termRefs('tags'),
  venue: Joi.alternatives()
    .try(idOrZero(), linkList(inlineVenue, 'venue'), inlineVenue)
    .allow(null, '')
    .description(
      `Venue: an ID, an array of IDs, or an object with at least \`venue\` (the name; created and linked; at most ${MAX_INLINE_LINKS} per write); 0, [] or null clears it`,
    ),
  organizer: Joi.alternatives()
    .try(idOrZero(), linkList(inlineOrganizer, 'organizer'), inlineOrganizer)
    .allow(null, '')
    .description(
      `Organizers: an ID, or an array of IDs and/or objects with at least \`organizer\` (the name; created and linked; at most ${MAX_INLINE_LINKS} per write); 0, [] or null clears them`,
    ),
  post_parent: idOrZero()
    .clearable()
    .description('Parent event ID (ours); 0, null or "" for none; must be an existing event other than this one'),
  recurrence: Joi.array()
    .single()
    .items(Joi.string().trim().min(1).max(MAX_RECURRENCE_LINE))
    .max(MAX_RECURRENCE_LINES)
    .allow(null)
    .description(
      'Makes the event a series (ours, EXTENSIONS part 11): RFC 5545 content lines, at most one `RRULE:` and any `RDATE` and `EXDATE` lines (`;TZID=zone`, a `Z` time, or the event time zone; `;VALUE=DATE` for all-day series), e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10", "EXDATE;TZID=Europe/Paris:20270112T100000"]; a single string is one line; start_date/end_date are the first occurrence; null or [] makes it a single event again',
    ),
  password: text(255)
    .allow(null)
    .description(
      'Event password (later revision): stored only as a hash; protected events need it to be read; "" or null removes it',
    ),
});

export const EVENT_REQUIRED_ON_CREATE: (keyof EventWriteInput & string)[] = ['title', 'start_date', 'end_date'];

/** Extra parameter of single reads and deletes (later revision). */
export const eventReadSchema = inputSchema<EventReadInput>()({
  password: Joi.string().max(255).allow('').description('The event password, to read a password-protected event'),
});

/** `PATCH /events/{id}/occurrences/{recurrence_id}` (EXTENSIONS part 11): what one occurrence may change. */
export interface OccurrenceWriteInput {
  start_date?: string | null;
  end_date?: string | null;
  title?: string | null;
  description?: string | null;
  excerpt?: string | null;
  venue?: LinkInput<VenueWriteInput>;
  organizer?: LinkInput<OrganizerWriteInput>;
  cost?: string | number | null;
}

const FOLLOWS_SERIES = 'null follows the series again';
const eventKey = (key: keyof EventWriteInput & string) => (eventWriteSchema as BaseJoi.ObjectSchema).extract(key);
const postKeys = postWriteKeys('event');

export const occurrenceWriteSchema = inputSchema<OccurrenceWriteInput>()({
  start_date: dateField(`Start of this occurrence (moves it; ${FOLLOWS_SERIES})`).allow(null),
  end_date: dateField(`End of this occurrence (${FOLLOWS_SERIES})`).allow(null),
  title: nameText(500, `Title of this occurrence (${FOLLOWS_SERIES})`).allow(null),
  description: postKeys.description.description(`Description of this occurrence (HTML, sanitised; ${FOLLOWS_SERIES})`),
  excerpt: postKeys.excerpt.description(`Excerpt of this occurrence (HTML, sanitised; ${FOLLOWS_SERIES})`),
  venue: eventKey('venue').description(`Venue of this occurrence, as an event's venue (${FOLLOWS_SERIES})`),
  organizer: eventKey('organizer').description(
    `Organizers of this occurrence, as an event's organizer (${FOLLOWS_SERIES})`,
  ),
  cost: eventKey('cost').description(`Cost of this occurrence (${FOLLOWS_SERIES})`),
});
