import { getTimezone } from 'countries-and-timezones';

/**
 * The IANA name of time zone `zone` (any case, links resolved: `asia/calcutta` → `Asia/Kolkata`,
 * `US/Eastern` → `America/New_York`), or null when it is not an IANA time zone. Intl knows which
 * zones exist, but names them as ICU does, by names IANA has retired (`Asia/Calcutta`,
 * `Europe/Kiev`); the zone table says what they are now. `UTC` stays `UTC`.
 */
export function ianaTimeZone(zone: string): string | null {
  let known: string;
  try {
    known = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (known === 'UTC') return known;
  return getTimezone(known)?.aliasOf ?? known;
}
