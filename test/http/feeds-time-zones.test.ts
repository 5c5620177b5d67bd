import { expect } from 'chai';
import { DateTime } from 'luxon';
import ICAL from 'ical.js';
import { api, request, ROOT } from '../support/api';
import { searchReady, unique, writeIndexed } from '../support/lists';

const WIDE = 'start_date=2000-01-01&end_date=2100-01-01';
const basic = (date: DateTime) => date.toFormat("yyyyMMdd'T'HHmmss");

/** The API's occurrences of a series, as `utc_start_date`s. */
async function listedStarts(id: number): Promise<string[]> {
  const res = await api.get(`/events/${id}/occurrences?per_page=50&${WIDE}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.total).to.be.below(50);
  return res.body.events.map((event: { utc_start_date: string }) => event.utc_start_date).sort();
}

/**
 * The starts ical.js (not this API) expands from a feed, in UTC: its own VTIMEZONEs registered
 * first, as a calendar application reads them.
 */
function expandedStarts(feed: string): { starts: string[]; vevent: ICAL.Component } {
  const calendar = new ICAL.Component(ICAL.parse(feed));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  const starts: string[] = [];
  const iterator = event.iterator();
  for (let next = iterator.next(); next && starts.length < 60; next = iterator.next()) {
    starts.push(DateTime.fromJSDate(next.toJSDate()).toUTC().toFormat('yyyy-MM-dd HH:mm:ss'));
  }
  return { starts: starts.sort(), vevent };
}

/**
 * EXTENSIONS part 12: a feed read by a calendar application (ical.js) gives the occurrences the API
 * lists, in zones whose rules changed in recent years and across their clock changes, whatever
 * form the recurrence lines were sent in.
 */
describe('feeds: recurring events in their time zones, as a calendar application reads them', function () {
  this.timeout(120_000);
  before(searchReady);

  const ZONES = [
    'Europe/Paris',
    'America/New_York',
    'America/Mexico_City',
    'America/Sao_Paulo',
    'Asia/Tehran',
    'Africa/Casablanca',
    'Pacific/Apia',
    'Australia/Lord_Howe',
    'America/Santiago',
  ];
  for (const zone of ZONES) {
    it(`${zone}: every third week for a year, UNTIL a day, an EXDATE without zone, an RDATE in UTC, in lower case`, async () => {
      const start = DateTime.now()
        .setZone(zone)
        .plus({ weeks: 2 })
        .set({ hour: 10, minute: 0, second: 0, millisecond: 0 });
      const last = start.plus({ weeks: 51 });
      const created = await writeIndexed('POST', '/events', {
        title: unique(`Zone series ${zone}`),
        start_date: start.toFormat('yyyy-MM-dd HH:mm:ss'),
        end_date: start.plus({ hours: 2 }).toFormat('yyyy-MM-dd HH:mm:ss'),
        timezone: zone,
        recurrence: [
          `rrule:freq=weekly;interval=3;until=${last.toFormat('yyyyMMdd')}`,
          `exdate:${basic(start.plus({ weeks: 6 }))}`,
          `rdate:${basic(start.plus({ weeks: 4 }).toUTC())}Z`,
        ],
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const id = created.body.id as number;
      const listed = await listedStarts(id);
      // Weeks 0, 3 ... 51, the sixth week's left out, the fourth's added.
      expect(listed).to.have.length(18);
      const feed = await request('GET', `${ROOT}/events/${id}.ics`);
      expect(feed.status).to.equal(200);
      const text = String(feed.body);
      const { starts, vevent } = expandedStarts(text);
      expect(starts, 'ical.js expands the feed as the API lists the series').to.deep.equal(listed);
      const rrule = /\r\nRRULE:([^\r]*)\r\n/.exec(text.slice(text.indexOf('BEGIN:VEVENT')))?.[1];
      expect(rrule, 'the rule in upper case, UNTIL in UTC beside a TZID start').to.match(
        /^FREQ=WEEKLY;INTERVAL=3;UNTIL=\d{8}T\d{6}Z$/,
      );
      expect(String(vevent.getFirstProperty('exdate')?.getParameter('tzid'))).to.equal(zone);
      expect(String(vevent.getFirstProperty('rdate')?.getParameter('tzid'))).to.equal(zone);
    });
  }

  it('a series of dates alone (RDATEs, no rule): an RDATE line with DTSTART too, which ical.js expands as the API lists them', async () => {
    const zone = 'Europe/Paris';
    const start = DateTime.now()
      .setZone(zone)
      .plus({ days: 5 })
      .set({ hour: 19, minute: 0, second: 0, millisecond: 0 });
    const created = await writeIndexed('POST', '/events', {
      title: unique('Dates alone'),
      start_date: start.toFormat('yyyy-MM-dd HH:mm:ss'),
      end_date: start.plus({ hours: 2 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      timezone: zone,
      recurrence: [`RDATE;TZID=${zone}:${basic(start.plus({ weeks: 1 }))},${basic(start.plus({ weeks: 5 }))}`],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.id as number;
    const listed = await listedStarts(id);
    expect(listed).to.have.length(3);
    const text = String((await request('GET', `${ROOT}/events/${id}.ics`)).body);
    const vevent = text.slice(text.indexOf('BEGIN:VEVENT'), text.indexOf('END:VEVENT'));
    expect(vevent).not.to.contain('RRULE');
    // DTSTART among them: without a rule, ical.js expands the RDATEs alone.
    expect(vevent).to.contain(
      `\r\nRDATE;TZID=${zone}:${[0, 1, 5].map((weeks) => basic(start.plus({ weeks }))).join(',')}\r\n`,
    );
    expect(expandedStarts(text).starts, 'ical.js expands the feed as the API lists the series').to.deep.equal(listed);
  });

  it('an all-day series: UNTIL a date beside its date DTSTART, whatever form it was sent in', async () => {
    const zone = 'America/Mexico_City';
    const start = DateTime.now().setZone(zone).plus({ days: 10 }).startOf('day');
    const created = await writeIndexed('POST', '/events', {
      title: unique('All-day zone series'),
      start_date: start.toFormat('yyyy-MM-dd'),
      end_date: start.toFormat('yyyy-MM-dd'),
      all_day: true,
      timezone: zone,
      recurrence: [
        `RRULE:FREQ=DAILY;UNTIL=${start.plus({ days: 4 }).set({ hour: 12 }).toUTC().toFormat("yyyyMMdd'T'HHmmss")}Z`,
      ],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const feed = String((await request('GET', `${ROOT}/events/${created.body.id}.ics`)).body);
    expect(feed).to.contain(`\r\nRRULE:FREQ=DAILY;UNTIL=${start.plus({ days: 4 }).toFormat('yyyyMMdd')}\r\n`);
    const vevent = new ICAL.Event(new ICAL.Component(ICAL.parse(feed)).getFirstSubcomponent('vevent')!);
    const days: string[] = [];
    const iterator = vevent.iterator();
    for (let next = iterator.next(); next && days.length < 10; next = iterator.next()) days.push(next.toString());
    const listed = await api.get(`/events/${created.body.id}/occurrences?per_page=50&${WIDE}`);
    expect(days).to.deep.equal(
      listed.body.events.map((event: { start_date: string }) => event.start_date.slice(0, 10)),
    );
    expect(days).to.have.length(5);
  });
});
