import table from './zoneAbbreviations.json';

/** The first year the table covers: earlier years may have used the same offsets under other names. */
export const ZONE_ABBREVIATIONS_SINCE: number = table.since;
/** Zone → UTC offset in minutes → the abbreviation the tz database prints (`MSK`, `+08`). */
export const ZONE_ABBREVIATIONS: Readonly<Record<string, Readonly<Record<number, string>>>> = table.zones;
