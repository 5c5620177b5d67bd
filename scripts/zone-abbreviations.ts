/**
 * Regenerates src/domain/zoneAbbreviations.json (read by zoneAbbreviations.ts) from this
 * machine's tz database (Debian's `tzdata`): the abbreviation each zone uses at each UTC offset it has now and in the coming
 * years, as PHP's `T` date format (and so The Events Calendar's `timezone_abbr`) prints it.
 * Run after a tzdata update: npm run generate:zone-abbreviations
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ZONEINFO = '/usr/share/zoneinfo/tzdata.zi';
const OUTPUT = path.resolve(__dirname, '..', 'src', 'domain', 'zoneAbbreviations.json');
const FIRST_YEAR = new Date().getUTCFullYear() - 2;
const YEARS = 8;

/** Mid-winter and mid-summer of each year: every offset a zone uses in the period. */
function sampleInstants(): string[] {
  const instants: string[] = [];
  for (let year = FIRST_YEAR; year < FIRST_YEAR + YEARS; year++) {
    for (const month of ['01', '04', '07', '10']) instants.push(`${year}-${month}-15T12:00:00Z`);
  }
  return instants;
}

/** `+0300 MSK` lines → offset in minutes → abbreviation; a later year's name wins. */
function abbreviationsOf(zone: string, instants: string[]): Record<number, string> {
  const printed = execFileSync('date', ['-f', '-', '+%z %Z'], {
    env: { TZ: zone },
    input: instants.join('\n'),
  }).toString();
  const byOffset: Record<number, string> = {};
  for (const line of printed.trim().split('\n')) {
    const [offset, abbreviation] = line.split(' ') as [string, string];
    const sign = offset.startsWith('-') ? -1 : 1;
    const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5)));
    byOffset[minutes] = abbreviation;
  }
  return byOffset;
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
  const instants = sampleInstants();
  // One zone per line: a tzdata update shows in the diff zone by zone.
  const lines = zones.map(
    (zone, i) =>
      `    ${JSON.stringify(zone)}: ${JSON.stringify(abbreviationsOf(zone, instants))}${i < zones.length - 1 ? ',' : ''}`,
  );
  const header = {
    generatedBy: 'scripts/zone-abbreviations.ts (npm run generate:zone-abbreviations): do not edit',
    tzdata: version,
    since: FIRST_YEAR,
  };
  const headerLines = Object.entries(header).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`,
  );
  writeFileSync(OUTPUT, ['{', ...headerLines, '  "zones": {', ...lines, '  }', '}', ''].join('\n'));
  console.log(`wrote ${zones.length} zones from tzdata ${version} to ${path.relative(process.cwd(), OUTPUT)}`);
}

main();
