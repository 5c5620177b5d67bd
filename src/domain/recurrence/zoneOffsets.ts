import { IANAZone } from 'luxon';

/**
 * A time zone's UTC offsets, found once per zone and year and kept: placing the occurrences of a
 * series asks for thousands, each of which costs ICU (through luxon) a few microseconds. Years
 * outside FIRST_KEPT_YEAR-LAST_KEPT_YEAR (a rule from year 1 is valid) are asked of ICU each time.
 */

const DAY_MS = 86_400_000;
const SECOND_MS = 1_000;
const FIRST_KEPT_YEAR = 1900;
const LAST_KEPT_YEAR = 2200;
/** Zone-years kept (each a few changes at most); the least recently used is dropped first. */
const MAX_YEARS_KEPT = 4_000;

/** A zone's offsets over one UTC year: the offset at its start and each change within it. */
interface YearOffsets {
  initial: number;
  changes: { at: number; offset: number }[];
}

const kept = new Map<string, YearOffsets>();

/** The first second after `lo` at which the offset is no longer `before`, `hi` known to differ. */
function changeBetween(zone: IANAZone, before: number, lo: number, hi: number): number {
  while (hi - lo > SECOND_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / SECOND_MS) * SECOND_MS;
    if (zone.offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Day by day: a change and its reversal within one day would go unseen (no zone has had one). */
function yearOf(zone: IANAZone, year: number): YearOffsets {
  const key = `${zone.name} ${year}`;
  const found = kept.get(key);
  if (found) {
    kept.delete(key);
    kept.set(key, found);
    return found;
  }
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const initial = zone.offset(start);
  const changes: YearOffsets['changes'] = [];
  let offset = initial;
  for (let day = start; day < end;) {
    const next = Math.min(day + DAY_MS, end);
    if (zone.offset(next) === offset) {
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

const keptYear = (year: number) => year >= FIRST_KEPT_YEAR && year <= LAST_KEPT_YEAR;

/** Minutes east of UTC in `zone` at instant `at`; NaN for a zone ICU does not know. */
export function offsetAt(zoneName: string, at: number): number {
  const zone = IANAZone.create(zoneName);
  if (!zone.isValid) return NaN;
  const year = new Date(at).getUTCFullYear();
  return keptYear(year) ? offsetIn(yearOf(zone, year), at) : zone.offset(at);
}

/**
 * The offsets `zone` has from `from` to `to` (a span of days): each, in kept years; elsewhere
 * those at both ends.
 */
export function offsetsBetween(zoneName: string, from: number, to: number): number[] {
  const zone = IANAZone.create(zoneName);
  if (!zone.isValid) return [];
  const [first, last] = [new Date(from).getUTCFullYear(), new Date(to).getUTCFullYear()];
  if (!keptYear(first) || !keptYear(last)) return [...new Set([zone.offset(from), zone.offset(to)])];
  const offsets = new Set<number>();
  for (let year = first; year <= last; year++) {
    const yearly = yearOf(zone, year);
    offsets.add(offsetIn(yearly, Math.max(from, Date.UTC(year, 0, 1))));
    for (const change of yearly.changes) if (change.at > from && change.at <= to) offsets.add(change.offset);
  }
  return [...offsets];
}
