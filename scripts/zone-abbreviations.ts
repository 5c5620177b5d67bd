/**
 * Regenerates src/domain/zoneAbbreviations.json (read by zoneAbbreviations.ts) from this
 * machine's tz database (Debian's `tzdata`): for each zone, the abbreviation it uses at each UTC
 * offset, period by period through its history (`zdump -v`), as PHP's `T` date format (and so The
 * Events Calendar's `timezone_abbr`) prints it. A new period starts where the zone gave one of its
 * offsets another name (Shanghai's `+08` became `CST` in 1940, Dubai's `GST` became `+04` in 2024).
 * Run after a tzdata update: npm run generate:zone-abbreviations
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ZONEINFO = '/usr/share/zoneinfo/tzdata.zi';
const OUTPUT = path.resolve(__dirname, '..', 'src', 'domain', 'zoneAbbreviations.json');
/** Transitions up to this year are read; the last period goes on for ever (rules repeat yearly). */
const LAST_YEAR = 2100;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// `Europe/Paris  Sun Mar 25 01:00:00 1990 UT = Sun Mar 25 03:00:00 1990 CEST isdst=1 gmtoff=7200`
const ZDUMP_LINE = /^\S+\s+\w{3} (\w{3}) +(\d+) (\d\d):(\d\d):(\d\d) (-?\d+) UT = .* (\S+) isdst=\d gmtoff=(-?\d+)$/;

/** From `since` (unix seconds; null: the beginning), UTC offset in seconds → abbreviation. */
type Period = [since: number | null, names: Record<number, string>];

interface State {
  at: number;
  offsetSeconds: number;
  abbreviation: string;
}

function statesOf(zone: string): State[] {
  const printed = execFileSync('zdump', ['-v', '-c', `1,${LAST_YEAR}`, zone]).toString();
  const states: State[] = [];
  for (const line of printed.split('\n')) {
    const match = ZDUMP_LINE.exec(line);
    if (!match) continue;
    const [, month, day, hours, minutes, seconds, year, abbreviation, gmtoff] = match as unknown as string[];
    const date = new Date(0);
    date.setUTCFullYear(Number(year), MONTHS.indexOf(month!), Number(day));
    date.setUTCHours(Number(hours), Number(minutes), Number(seconds));
    states.push({ at: date.getTime() / 1000, offsetSeconds: Number(gmtoff), abbreviation: abbreviation! });
  }
  return states;
}

/** A zone without transitions (UTC, Etc/GMT+5): its one offset and name, as `date` prints them. */
function fixedState(zone: string): State {
  const [offset, abbreviation] = execFileSync('date', ['+%z %Z'], { env: { TZ: zone } })
    .toString()
    .trim()
    .split(' ') as [string, string];
  const sign = offset.startsWith('-') ? -1 : 1;
  return {
    at: 0,
    offsetSeconds: sign * (Number(offset.slice(1, 3)) * 3600 + Number(offset.slice(3, 5)) * 60),
    abbreviation,
  };
}

function periodsOf(zone: string): Period[] {
  const states = statesOf(zone);
  if (states.length === 0) states.push(fixedState(zone));
  const periods: Period[] = [];
  let names: Record<number, string> | null = null;
  for (const { at, offsetSeconds, abbreviation } of states) {
    const known: string | undefined = names?.[offsetSeconds];
    if (names && (known === undefined || known === abbreviation)) {
      names[offsetSeconds] = abbreviation;
      continue;
    }
    names = { [offsetSeconds]: abbreviation };
    periods.push([periods.length === 0 ? null : at, names]);
  }
  return periods;
}

function main(): void {
  const database = readFileSync(ZONEINFO, 'utf8');
  const version = /^# version (\S+)/m.exec(database)?.[1];
  if (!version) throw new Error(`${ZONEINFO} has no version line: is Debian's tzdata package installed?`);
  const zones = database
    .split('\n')
    .filter((line) => line.startsWith('Z '))
    .map((line) => line.split(' ')[1] as string)
    .filter((zone) => zone !== 'Factory')
    .concat('UTC')
    .sort();
  // One zone per line: a tzdata update shows in the diff zone by zone.
  const lines = zones.map(
    (zone, i) => `    ${JSON.stringify(zone)}: ${JSON.stringify(periodsOf(zone))}${i < zones.length - 1 ? ',' : ''}`,
  );
  const header = {
    generatedBy: 'scripts/zone-abbreviations.ts (npm run generate:zone-abbreviations): do not edit',
    tzdata: version,
    format: 'zone → [[since unix seconds or null, {UTC offset in seconds: abbreviation}], ...]',
  };
  const headerLines = Object.entries(header).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`,
  );
  writeFileSync(OUTPUT, ['{', ...headerLines, '  "zones": {', ...lines, '  }', '}', ''].join('\n'));
  console.log(`wrote ${zones.length} zones from tzdata ${version} to ${path.relative(process.cwd(), OUTPUT)}`);
}

main();
