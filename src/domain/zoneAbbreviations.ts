import table from './zoneAbbreviations.json';

/** From `since` (unix seconds; null: the beginning of the zone's history), UTC offset in seconds → abbreviation. */
type Period = readonly [since: number | null, names: Readonly<Record<string, string>>];

const isPeriod = (row: unknown): row is Period =>
  Array.isArray(row) &&
  row.length === 2 &&
  (row[0] === null || typeof row[0] === 'number') &&
  typeof row[1] === 'object' &&
  row[1] !== null;

/** A zone's rows, checked once at load: a JSON import is typed by what the file happens to hold. */
function periodsOf(zone: string, rows: readonly unknown[]): readonly Period[] {
  return rows.map((row) => {
    if (!isPeriod(row)) throw new Error(`zoneAbbreviations.json: ${zone} has a malformed period`);
    return row;
  });
}

const PERIODS: Readonly<Record<string, readonly Period[]>> = Object.fromEntries(
  Object.entries(table.zones).map(([zone, rows]) => [zone, periodsOf(zone, rows)]),
);

/**
 * The abbreviation the tz database prints for `zone` at UTC offset `offsetMinutes` at the instant
 * `atSeconds` (`MSK`, `+08`, `LMT`), or undefined where it has none (an unknown zone, or an offset
 * this machine's ICU gives the zone and the tz database behind the table does not).
 */
export function tzAbbreviation(zone: string, offsetMinutes: number, atSeconds: number): string | undefined {
  const periods = PERIODS[zone];
  if (!periods) return undefined;
  let i = periods.length - 1;
  while (i > 0 && (periods[i]![0] ?? -Infinity) > atSeconds) i--;
  return periods[i]![1][Math.round(offsetMinutes * 60)];
}

/** Whether the tz database lists `zone` as a zone of its own (not only as a link to another). */
export function isTzDatabaseZone(zone: string): boolean {
  return zone in PERIODS;
}
