import { expect } from 'chai';
import { checkRecurrence } from '../../../src/domain/recurrence/check';

/**
 * The occurrence limit is decided on the rule's own starts when enough are a day past now (the
 * cheap way), else on the occurrences placed in the zone: both ways give the same answers at the
 * edges, starts within the first day and EXDATEs included.
 */
describe('domain/recurrence: the occurrence limit at its edges', function () {
  this.timeout(20_000);
  const limits = { maxOccurrences: 1000, horizonDays: 730 };
  const now = new Date('2027-01-10T22:30:00Z');
  const startingAt = (iso: string) => ({
    start: new Date(iso),
    end: new Date(new Date(iso).getTime() + 1_800_000),
    timezone: 'Europe/Paris',
    all_day: false,
  });
  const answer = (lines: string[], start: string) =>
    checkRecurrence(lines, startingAt(start), limits, now).then(
      () => 'accepted',
      (err: { params: Record<string, string> }) => err.params.recurrence,
    );

  for (const start of ['2027-01-10T23:00:00Z', '2027-01-20T08:00:00Z']) {
    it(`hourly from ${start}: 1,000 occurrences fit, 1,001 do not, an EXDATE makes room`, async () => {
      expect(await answer(['RRULE:FREQ=HOURLY;COUNT=1000'], start)).to.equal('accepted');
      expect(await answer(['RRULE:FREQ=HOURLY;COUNT=1001'], start)).to.match(/RECURRENCE_MAX_OCCURRENCES \(1000\)/);
      const second = new Date(new Date(start).getTime() + 3_600_000).toISOString().replace(/[-:]|\.\d{3}/g, '');
      expect(await answer(['RRULE:FREQ=HOURLY;COUNT=1001', `EXDATE:${second}`], start)).to.equal('accepted');
      expect(await answer(['RRULE:FREQ=HOURLY'], start)).to.match(/RECURRENCE_MAX_OCCURRENCES/);
    });
  }
});
