import { getAllTimezones, getTimezone } from 'countries-and-timezones';
import { isTzDatabaseZone } from '../src/domain/zoneAbbreviations';

/** The zone table's names by lower case: `europe/oslo` → `Europe/Oslo`. */
const NAMES = new Map(Object.keys(getAllTimezones({ deprecated: true })).map((name) => [name.toLowerCase(), name]));

const OFFSET = /^[+-]/;

/**
 * The IANA name of time zone `zone`, or null when it is not an IANA time zone. Any case is
 * accepted (`europe/paris` → `Europe/Paris`). A retired name is replaced by the one its zone has
 * now (`Asia/Calcutta` → `Asia/Kolkata`, `US/Eastern` → `America/New_York`), as Intl does not:
 * it names zones as ICU does. A zone that tzdata only links to another country's zone because
 * their clocks agree since 1970 keeps its own name: `Europe/Oslo` stays Oslo, not Berlin, as in
 * PHP's zone list. A name the tz database no longer lists gives way to ICU's when that one is
 * listed (`Antarctica/South_Pole` → `Antarctica/McMurdo`). `UTC` stays `UTC`.
 */
export function ianaTimeZone(zone: string): string | null {
  let known: string;
  try {
    known = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  // Intl of Node 22 and later also takes UTC offsets (`+02:00`, `-0530`): they name no zone.
  if (OFFSET.test(known)) return null;
  if (known === 'UTC') return known;
  const named = NAMES.get(zone.toLowerCase()) ?? known;
  const entry = getTimezone(named);
  const target = entry?.aliasOf ? getTimezone(entry.aliasOf) : null;
  const current = target && entry!.countries.includes(target.countries[0]!) ? target.name : named;
  // Names the tz database still lists come first (`Iceland` → `Atlantic/Reykjavik`, as ICU has it).
  return [current, known].find(isTzDatabaseZone) ?? current;
}
