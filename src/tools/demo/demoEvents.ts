import type { DateTime } from 'luxon';
import { LANGUAGES, type Language } from '../../../config';
import { resolveEventDates } from '../../domain/eventDates';
import { slugify } from '../../domain/slug';
import type { NewRecord } from '../../storage/documentBuilder';
import type { EventDoc } from '../../storage/stores';
import type { Status } from '../../domain/status';
import * as catalog from './demoCatalog';
import { richText, type Dice } from './demoDice';
import * as places from './demoPlaces';
import { publishedBefore, type SeededVenue, type Terms } from './demoRecords';

/** Demo data: one event, built the way the API's create builds it (resolveEventDates...). */

export interface EventContext {
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

export function demoEvent(dice: Dice, now: DateTime, context: EventContext): NewRecord<EventDoc> {
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
  const country = places.COUNTRIES[city.country] as (typeof places.COUNTRIES)[string];
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
