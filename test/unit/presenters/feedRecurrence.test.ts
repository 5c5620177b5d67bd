import { expect } from 'chai';
import { feedRecurrenceLines } from '../../../src/presenters/feedRecurrence';

/** A weekly series at 10:00 in New York from Monday 1 March 2027 (EST, UTC-5; EDT from 14 March). */
const series = {
  start: new Date('2027-03-01T15:00:00Z'),
  end: new Date('2027-03-01T16:00:00Z'),
  timezone: 'America/New_York',
  all_day: false,
};
const sent = [
  'rrule:freq=weekly;byday=mo;until=20270329',
  'exdate:20270315T100000',
  'RDATE;TZID=Europe/Paris:20270317T160000,20270318T170000',
  'EXDATE:20270322T140000Z',
];

describe('recurrence lines as a feed writes them beside DTSTART (RFC 5545 3.3.10, 3.8.5)', () => {
  it("beside a TZID start: upper case, UNTIL the day's last second in UTC, every date a wall clock of the series' zone", () => {
    expect(feedRecurrenceLines(sent, series, 'zone')).to.deep.equal([
      'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20270330T035959Z',
      'RDATE;TZID=America/New_York:20270317T110000,20270318T120000',
      'EXDATE;TZID=America/New_York:20270315T100000,20270322T100000',
    ]);
  });

  it('beside a start in UTC: every date in UTC', () => {
    expect(feedRecurrenceLines(sent, series, 'utc')).to.deep.equal([
      'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20270330T035959Z',
      'RDATE:20270317T150000Z,20270318T160000Z',
      'EXDATE:20270315T140000Z,20270322T140000Z',
    ]);
  });

  it('beside a date start (all day): UNTIL and the dates as dates, a wall clock UNTIL at its day', () => {
    const allDay = { ...series, all_day: true };
    expect(
      feedRecurrenceLines(['RRULE:FREQ=DAILY;UNTIL=20270305T030000Z', 'EXDATE;VALUE=DATE:20270302'], allDay, 'date'),
    ).to.deep.equal(['RRULE:FREQ=DAILY;UNTIL=20270304', 'EXDATE;VALUE=DATE:20270302']);
  });

  it('without a rule: DTSTART among the RDATEs, as the first instance (parsers expand the RDATEs alone)', () => {
    expect(feedRecurrenceLines(['RDATE:20270317T100000', 'EXDATE:20270318T100000'], series, 'zone')).to.deep.equal([
      'RDATE;TZID=America/New_York:20270301T100000,20270317T100000',
      'EXDATE;TZID=America/New_York:20270318T100000',
    ]);
    expect(feedRecurrenceLines(['EXDATE:20270318T100000'], series, 'utc')).to.deep.equal([
      'RDATE:20270301T150000Z',
      'EXDATE:20270318T140000Z',
    ]);
    const allDay = { ...series, start: new Date('2027-03-01T05:00:00Z'), all_day: true };
    expect(feedRecurrenceLines(['RDATE;VALUE=DATE:20270310'], allDay, 'date')).to.deep.equal([
      'RDATE;VALUE=DATE:20270301,20270310',
    ]);
  });
});
