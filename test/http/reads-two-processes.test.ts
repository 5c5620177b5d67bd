import { expect } from 'chai';
import { freePort } from '../../src/dev/managedProcess';
import { createLogger } from '../../src/lib/log';
import { startServer, type RunningServer } from '../../src/app/server';
import { openServices, type Services } from '../../src/services/container';
import { api, ROOT } from '../support/api';
import { testWorld } from '../support/harness';
import { create, daysFromNow, searchReady, settle, unique } from '../support/lists';

/**
 * Reads by ID keep what events embed (venues, organizers, terms with their counts) and the
 * validators they answered per change mark (src/services/views/embeddedByMark.ts,
 * src/api/resource/knownValidators.ts). CONTRACT part 8: a read after a write's answer shows it at
 * once, also when another API process (its own services and caches, the same database) serves it.
 * So do the full `/changes` pages a process keeps (src/services/queries/changePages.ts).
 */
describe('reads by ID and change pages reflect another API process’s writes at once (CONTRACT part 8)', function () {
  this.timeout(120_000);
  let other: { services: Services; server: RunningServer };
  let venue: { id: number };
  let organizer: { id: number };
  let category: { id: number };
  let event: { id: number; slug: string };

  /** GET on the other process, anonymous unless `headers` say otherwise. */
  const read = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${other.server.url}${ROOT}${path}`, { headers });
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('etag'), body: text ? JSON.parse(text) : undefined };
  };

  before(async () => {
    const { config } = testWorld();
    const services = await openServices(config, createLogger('silent'));
    other = { services, server: await startServer(services, '127.0.0.1', await freePort()) };
    await searchReady();
    venue = await create('/venues', { venue: unique('Hall'), city: 'Lyon' });
    organizer = await create('/organizers', { organizer: unique('Crew') });
    category = await create('/categories', { name: unique('Twoproc') });
    event = await create('/events', {
      title: 'Seen from afar',
      start_date: daysFromNow(6),
      end_date: daysFromNow(6, '22:00:00'),
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
    });
    await settle();
  });

  after(async () => {
    await other?.server.close();
    await other?.services.close();
  });

  it('shows each change of an embedded venue, organizer and term, read right after the write', async () => {
    const path = `/events/${event.id}`;
    for (let round = 1; round <= 3; round++) {
      // Read first, so that the other process keeps what the event embeds as it was.
      expect((await read(path)).status).to.equal(200);
      const names = { venue: `Hall ${round}`, organizer: `Crew ${round}`, category: `Twoproc ${round}` };
      expect((await api.post(`/venues/${venue.id}`, { venue: names.venue })).status).to.equal(200);
      expect((await api.post(`/organizers/${organizer.id}`, { organizer: names.organizer })).status).to.equal(200);
      expect((await api.post(`/categories/${category.id}`, { name: names.category })).status).to.equal(200);
      const { body } = await read(path);
      expect(body.venue.venue).to.equal(names.venue);
      expect(body.organizer.map((o: { organizer: string }) => o.organizer)).to.deep.equal([names.organizer]);
      expect(body.categories.map((c: { name: string }) => c.name)).to.deep.equal([names.category]);
      expect(body.json_ld.location.name).to.equal(names.venue);
    }
  });

  it('shows a term’s count change made by another event’s publication, read right after it', async () => {
    const path = `/events/${event.id}`;
    const countNow = async () => (await read(path)).body.categories[0].count as number;
    const before = await countNow();
    const second = await create('/events', {
      title: 'Counted too',
      start_date: daysFromNow(7),
      end_date: daysFromNow(7, '22:00:00'),
      categories: [category.id],
    });
    expect(await countNow()).to.equal(before + 1);
    expect((await api.post(`/events/${second.id}`, { status: 'draft' })).status).to.equal(200);
    expect(await countNow()).to.equal(before);
  });

  it('answers a revalidation 200 with the new record after the record’s own change, and after its venue’s', async () => {
    const path = `/events/${event.id}`;
    // The worker's indexing of earlier writes bumps the marks of what they link: a 304 is only due
    // once it has settled.
    await settle();
    const first = await read(path);
    expect((await read(path, { 'if-none-match': first.etag! })).status).to.equal(304);
    expect((await api.post(path, { title: 'Renamed from afar' })).status).to.equal(200);
    const renamed = await read(path, { 'if-none-match': first.etag! });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.title).to.equal('Renamed from afar');
    await settle();
    const settled = await read(path);
    expect((await read(path, { 'if-none-match': settled.etag! })).status).to.equal(304);
    expect((await api.post(`/venues/${venue.id}`, { venue: 'Hall moved' })).status).to.equal(200);
    const moved = await read(path, { 'if-none-match': settled.etag! });
    expect(moved.status).to.equal(200);
    expect(moved.body.venue.venue).to.equal('Hall moved');
  });

  it('presents a series afresh on each read: its next occurrences move with the time', async () => {
    // Occurrences an hour apart, lasting a second each, the first starting in five whole seconds:
    // time enough to write and read the series on a busy machine before it ends.
    const first = new Date(Math.ceil(Date.now() / 1_000) * 1_000 + 5_000);
    const wall = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
    const series = await create('/events', {
      title: 'Every hour',
      start_date: wall(first),
      end_date: wall(new Date(first.getTime() + 1_000)),
      timezone: 'UTC',
      recurrence: ['RRULE:FREQ=HOURLY;COUNT=5'],
    });
    const path = `/events/${series.id}`;
    const before = (await read(path)).body.next_occurrences as { start_date: string }[];
    expect(before[0]!.start_date).to.equal(wall(first));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, first.getTime() + 1_500 - Date.now())));
    const after = (await read(path)).body.next_occurrences as { start_date: string }[];
    expect(after[0]!.start_date).to.equal(wall(new Date(first.getTime() + 3_600_000)));
  });

  it('refuses a revalidation of an event made a draft, or given a password, meanwhile', async () => {
    const path = `/events/${event.id}`;
    const { etag } = await read(path);
    expect((await api.post(path, { password: 'sesame' })).status).to.equal(200);
    const locked = await read(path, { 'if-none-match': etag! });
    expect(locked.status).to.equal(403);
    expect(locked.body.code).to.equal('event-password-protected');
    const unlocked = await read(`${path}?password=sesame`);
    expect(unlocked.status).to.equal(200);
    // What the password opened is this caller's: the tag it got opens nothing without the password.
    expect((await read(path, { 'if-none-match': unlocked.etag! })).status).to.equal(403);
    expect((await api.post(path, { password: '', status: 'draft' })).status).to.equal(200);
    const draft = await read(path, { 'if-none-match': etag! });
    expect(draft.status).to.equal(403);
    expect(draft.body.code).to.not.equal('event-password-protected');
  });

  it('serves a /changes page it keeps only while no record changed: a write shows on it right after', async () => {
    const settled = () =>
      new Promise((resolve) => setTimeout(resolve, testWorld().config.integration.changesSettleMs + 200));
    // A position after every venue change so far (the worker's propagations included).
    await settle();
    await settled();
    let since = '';
    for (let more = true; more;) {
      const res = await api.get(`/changes?kinds=venues&per_page=1000&since=${since}`);
      since = encodeURIComponent(res.body.next_since);
      more = res.body.has_more;
    }
    const first = await create('/venues', { venue: unique('First') });
    const second = await create('/venues', { venue: unique('Second') });
    await settled();
    const path = `/changes?kinds=venues&per_page=1&since=${since}`;
    const kept = await read(path);
    expect(kept.body.has_more).to.equal(true);
    expect(kept.body.changes.map((c: { id: number }) => c.id)).to.deep.equal([first.id]);
    expect((await read(path)).etag).to.equal(kept.etag);
    // The first venue's change moves past the second's: the page now starts with the second.
    expect((await api.post(`/venues/${first.id}`, { venue: 'First renamed' })).status).to.equal(200);
    const after = await read(path);
    expect(after.body.changes.map((c: { id: number }) => c.id)).to.deep.equal([second.id]);
    expect(after.etag).to.not.equal(kept.etag);
  });
});
