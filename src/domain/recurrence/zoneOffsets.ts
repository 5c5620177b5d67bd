import { IANAZone } from 'luxon';

/**
 * A time zone's UTC offsets, found once per zone and year and kept: placing the occurrences of a
 * series asks for thousands, each of which costs ICU (through luxon) a few microseconds.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Zone-years kept (each a few changes at most); the oldest found is dropped first. */
const MAX_YEARS_KEPT = 4_000;

/** A zone's offsets over one UTC year: the offset at its start and each change within it. */
interface YearOffsets {
  initial: number;
  changes: { at: number; offset: number }[];
}

const kept = new Map<string, YearOffsets>();

/** The first minute after `lo` at which the offset is no longer `before`, `hi` known to differ. */
function changeBetween(zone: IANAZone, before: number, lo: number, hi: number): number {
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
    if (zone.offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Day by day: a change and its reversal within one day would go unseen (no zone has had one). */
function yearOf(zone: IANAZone, year: number): YearOffsets {
  const key = `${zone.name} ${year}`;
  const found = kept.get(key);
  if (found) return found;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const initial = zone.offset(start);
  const changes: YearOffsets['changes'] = [];
  let offset = initial;
  for (let day = start; day < end;) {
    const next = Math.min(day + DAY_MS, end);
    const after = zone.offset(next);
    if (after === offset) {
      day = next;
      continue;
    }
    day = changeBetween(zone, offset, day, next);
    offset = zone.offset(day);
    changes.push({ at: day, offset });
  }
  const offsets = { initial, changes };
  if (kept.size >= MAX_YEARS_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, offsets);
  return offsets;
}

function offsetIn(year: YearOffsets, at: number): number {
  let offset = year.initial;
  for (const change of year.changes) {
    if (change.at > at) break;
    offset = change.offset;
  }
  return offset;
}

/** Minutes east of UTC in `zone` at instant `at`; NaN for a zone ICU does not know. */
export function offsetAt(zoneName: string, at: number): number {
  const zone = IANAZone.create(zoneName);
  if (!zone.isValid) return NaN;
  return offsetIn(yearOf(zone, new Date(at).getUTCFullYear()), at);
}

/** The distinct offsets `zone` has at some instant from `from` to `to` (a span within two years). */
export function offsetsBetween(zoneName: string, from: number, to: number): number[] {
  const zone = IANAZone.create(zoneName);
  if (!zone.isValid) return [];
  const offsets = new Set<number>();
  for (let year = new Date(from).getUTCFullYear(); year <= new Date(to).getUTCFullYear(); year++) {
    const yearly = yearOf(zone, year);
    offsets.add(offsetIn(yearly, Math.max(from, Date.UTC(year, 0, 1))));
    for (const change of yearly.changes) if (change.at > from && change.at <= to) offsets.add(change.offset);
  }
  return [...offsets];
}
