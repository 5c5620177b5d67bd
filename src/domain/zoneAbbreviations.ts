import table from './zoneAbbreviations.json';

/** From `since` (unix seconds; null: the beginning of the zone's history), UTC offset in seconds → abbreviation. */
type Period = readonly [since: number | null, names: Readonly<Record<string, string>>];

const PERIODS = table.zones as unknown as Readonly<Record<string, readonly Period[]>>;

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
