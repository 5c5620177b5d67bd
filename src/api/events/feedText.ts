import type { AppContext } from '../../http/types';
import { chunks } from '../../lib/chunks';
import { SizedCache } from '../../lib/sizedCache';
import { CALENDAR_END, vevents, veventTexts } from '../../presenters/icalendar';
import type { Services } from '../../services/container';
import { FEED_PAGE_SIZE, type FeedMatch, type FeedPlan } from '../../services/queries/eventFeed';
import { storedEntries, type StoredFeedItem } from './feedEntries';

/** The VEVENT text of listed events, kept per services container (about 5,000 events). */
const MAX_KEPT_VEVENT_CHARS = 4 * 1024 * 1024;
const keptTexts = new WeakMap<Services, SizedCache>();

function keptTextsOf(services: Services): SizedCache {
  let found = keptTexts.get(services);
  if (!found) keptTexts.set(services, (found = new SizedCache(MAX_KEPT_VEVENT_CHARS)));
  return found;
}

/**
 * What the VEVENT of a listed event is made of: its index document at that version (an external
 * version grows with every change of the event or of what it embeds, as the feed's entity tag
 * counts on), seen anonymously as every feed is, and the UID's host. Its zone is always among the
 * feed's. A series is written from the database, and its changed occurrences by the date: never kept.
 */
const textKey = (hit: FeedMatch, host: string): string | null =>
  hit.series ? null : `${hit.index}\n${hit.id}\n${hit.version}\n${host}`;

/**
 * The VEVENTs of a page of matches, in order: those kept as text as they are, the others from
 * their records (one search for the page; the series among them read from the database at once).
 */
async function pageText(
  services: Services,
  ctx: AppContext,
  plan: FeedPlan,
  page: FeedMatch[],
  { host, zones }: CalendarParts,
): Promise<string> {
  const kept = keptTextsOf(services);
  const keys = page.map((hit) => textKey(hit, host));
  const texts = keys.map((key) => (key === null ? undefined : kept.get(key)));
  const missing = page.filter((_, i) => texts[i] === undefined);
  if (missing.length === 0) return texts.join('');
  const records = await plan.records(missing.map(({ id }) => id));
  const plain = [...records].filter(([, { series }]) => !series);
  const plainTexts = veventTexts(
    plain.map(([, { record, version }]) => ({ event: record, sequence: version })),
    host,
    zones,
  );
  const written = new Map(plain.map(([id], i) => [id, plainTexts[i]!]));
  const series = [...records].filter(([, { series }]) => series);
  if (series.length > 0) {
    const stored = await services.stores.events.getMany(series.map(([, { record }]) => Number(record.id)));
    const items = series.flatMap(([id, { record, version }]): (StoredFeedItem & { id: string })[] => {
      const found = stored.get(Number(record.id));
      return found ? [{ id, record: found, sequence: version }] : [];
    });
    const entries = await storedEntries(services, ctx.state.language, items);
    items.forEach(({ id }, i) => written.set(id, vevents(entries[i]!, host, zones)));
  }
  page.forEach((hit, i) => {
    if (texts[i] !== undefined) return;
    const text = written.get(hit.id);
    texts[i] = text ?? '';
    // Kept only as the plan saw it: a record changed since may have a zone the calendar lacks.
    if (text !== undefined && keys[i] !== null && records.get(hit.id)!.version === hit.version)
      kept.set(keys[i]!, text);
  });
  return texts.join('');
}

/** What a list feed's VEVENTs are written with: the UIDs' host, and the calendar's VTIMEZONEs. */
export interface CalendarParts {
  host: string;
  zones: ReadonlySet<string>;
}

/** A list feed's text: `head`, its VEVENTs a page at a time, then the calendar's end. */
export async function* feedText(
  services: Services,
  ctx: AppContext,
  plan: FeedPlan,
  head: string,
  parts: CalendarParts,
) {
  yield head;
  for (const page of chunks(plan.hits, FEED_PAGE_SIZE)) yield await pageText(services, ctx, plan, page, parts);
  yield CALENDAR_END;
}
