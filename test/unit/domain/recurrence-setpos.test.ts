import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { DateTime } from 'luxon';
import { checkRecurrence } from '../../../src/domain/recurrence/check';
import { expandSeries } from '../../../src/domain/recurrence/expand';
import { parseRecurrenceLines } from '../../../src/domain/recurrence/lines';

const REFERENCE = path.join(__dirname, '../../support/python/dateutil_occurrences.py');
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');

/**
 * BYSETPOS positions that select the same start: rrule 2.8.1 emits that start once per position
 * and counts each toward COUNT (jkbrzt/rrule pull request 669); RFC 5545 and dateutil count it once.
 */
describe('domain/recurrence: BYSETPOS positions selecting the same start', function () {
  this.timeout(20_000);
  const dtstart = '2027-01-15T09:00:00';
  const zone = 'Europe/Paris';
  const series = () => {
    const start = DateTime.fromISO(dtstart, { zone });
    return { start: start.toJSDate(), end: start.plus({ hours: 1 }).toJSDate(), timezone: zone, all_day: false };
  };

  for (const rule of [
    'RRULE:FREQ=MONTHLY;BYMONTHDAY=15;BYSETPOS=1,-1;COUNT=4',
    'RRULE:FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=15;BYSETPOS=1,-1;COUNT=4',
  ]) {
    it(`${rule}: each start once, COUNT distinct starts, as dateutil`, () => {
      const to = new Date('2035-01-01T00:00:00Z');
      const ours = expandSeries(parseRecurrenceLines([rule]), series(), to).map((o) =>
        o.start.toISOString().replace('.000', ''),
      );
      const input = JSON.stringify({ dtstart, tz: zone, lines: [rule], to: to.toISOString() });
      const theirs = (
        JSON.parse(execFileSync('python3', [REFERENCE], { input, encoding: 'utf8' })) as { utc: string }[]
      ).map((o) => o.utc);
      expect(ours).to.deep.equal(theirs);
      expect(ours).to.have.length(4);
    });
  }

  it('an hourly rule whose 366 positions all select the hour is refused, not stored as 11 days of it', async () => {
    const rule = `RRULE:FREQ=HOURLY;BYYEARDAY=${range(1, 366)};BYSETPOS=-${range(1, 366).replace(/,/g, ',-')}`;
    const refusal = await checkRecurrence([rule], series(), { maxOccurrences: 1000, horizonDays: 730 }).then(
      () => null,
      (err: { params?: Record<string, string> }) => err.params,
    );
    expect(refusal).to.have.property('recurrence');
  });
});
