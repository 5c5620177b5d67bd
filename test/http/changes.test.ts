import { expect } from 'chai';
import { api } from '../support/api';
import { testWorld } from '../support/harness';
import { create, daysFromNow, searchReady, settle, unique } from '../support/lists';
import { callers, type Caller } from '../support/access';
import { expectError, expectInvalid } from '../support/errors';
import { SERIES_INDEX_WAIT_MS } from '../../src/services/queries/changeFeed';
import { ChangeLog } from '../../src/storage/changeLog';

type ApiRecord = Record<string, any>;
const WINDOW = 'start_date=2000-01-01&end_date=2100-01-01';

/** A copy's entries by `id`, and occurrences by `id/recurrence_id` (a single event's is `id/`). */
type Copy = Map<string, ApiRecord>;
const entryKey = (entry: ApiRecord) => `${entry.id}/${entry.occurrence?.recurrence_id ?? ''}`;
const add = (copy: Copy, entries: ApiRecord[]) => entries.forEach((entry) => copy.set(entryKey(entry), entry));
const asCaller = (caller: Caller) => (caller.key ? { key: caller.key } : {});

/** A full copy of the events matching `word`: an export with a key, a cursor walk without. */
async function fullCopy(word: string, caller: Caller): Promise<{ copy: Copy; since: string }> {
  const copy: Copy = new Map();
  if (caller.key) {
    const { baseUrl } = testWorld();
    const res = await fetch(`${baseUrl}/calendar/events/v1/events/export?search=${word}&${WINDOW}`, {
      headers: { Authorization: `Bearer ${caller.key}` },
    });
    expect(res.status).to.equal(200);
    const lines = (await res.text()).split('\n').filter(Boolean);
    add(
      copy,
      lines.map((line) => JSON.parse(line)),
    );
    return { copy, since: res.headers.get('x-changes-since')! };
  }
  let cursor = '';
  let since = '';
  for (;;) {
    const res = await api.get(`/events?search=${word}&per_page=50&${WINDOW}&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    since ||= res.headers.get('x-changes-since')!;
    add(copy, res.body.events);
    if (res.body.next_cursor === null) return { copy, since };
    cursor = res.body.next_cursor;
  }
}

/** Every occurrence of series `id` in the copy's date window, as the caller's list shows them. */
async function occurrencesOf(id: number, caller: Caller): Promise<ApiRecord[]> {
  const entries: ApiRecord[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/events/${id}/occurrences?per_page=50&page=${page}&${WINDOW}`, asCaller(caller));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    entries.push(...res.body.events);
    if (page >= res.body.total_pages) return entries;
  }
}

/**
 * Applies /changes from `since` until has_more is false, as the guide's recipe says: a change
 * replaces the record's entries, with its occurrences when it is a series; returns the last
 * next_since.
 */
async function follow(copy: Copy, since: string, caller: Caller, perPage = 3): Promise<string> {
  let token = since;
  for (;;) {
    const res = await api.get(
      `/changes?kinds=events&per_page=${perPage}&since=${encodeURIComponent(token)}`,
      asCaller(caller),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.changes.length).to.be.at.most(perPage);
    for (const change of res.body.changes) {
      expect(change.kind).to.equal('events');
      for (const key of copy.keys()) if (key.startsWith(`${change.id}/`)) copy.delete(key);
      if (change.action === 'delete') expect(change.record).to.equal(null);
      else if (change.record.recurrence?.length) add(copy, await occurrencesOf(change.id, caller));
      else add(copy, [change.record]);
    }
    token = res.body.next_since;
    if (!res.body.has_more) return token;
  }
}

const mine = (copy: Copy, word: string) =>
  new Map([...copy].filter(([, record]) => String(record.title ?? '').includes(word)));

/** The IDs of the records the copy holds entries of. */
const idsIn = (copy: Copy) => [...new Set([...copy.values()].map((entry) => entry.id as number))];

describe('the change feed (EXTENSIONS 17)', () => {
  before(async () => {
    await searchReady();
  });

  for (const role of ['anonymous', 'editor'] as const) {
    it(`followed after a full copy, leaves a copy equal to a fresh one (${role})`, async function () {
      this.timeout(120_000);
      const caller = (await callers())[role];
      const word = unique(`feed${role}`);
      const venue = await create('/venues', { venue: `${word} hall`, status: 'publish' });
      const event = (n: number, extra: Record<string, unknown> = {}) =>
        create('/events', {
          title: `${word} ${n}`,
          start_date: daysFromNow(5 + n),
          end_date: daysFromNow(5 + n, '23:00:00'),
          status: 'publish',
          ...extra,
        });
      const events = [];
      for (let n = 0; n < 6; n++) events.push(await event(n, n === 0 ? { venue: venue.id } : {}));
      await settle();
      const { copy, since } = await fullCopy(word, caller);
      expect(copy.size).to.equal(6);
      // Creates, updates, a trash, a permanent delete, an unpublish, a password, a linked venue's change.
      await event(10);
      await event(11, { status: 'draft' });
      await api.post(`/events/${events[1].id}`, { title: `${word} 1 renamed` });
      await api.delete(`/events/${events[2].id}`);
      await api.delete(`/events/${events[3].id}?force=true`);
      await api.post(`/events/${events[4].id}`, { status: 'draft' });
      await api.post(`/events/${events[5].id}`, { password: 'sesame', description: 'secret text' });
      await api.post(`/venues/${venue.id}`, { venue: `${word} grand hall` });
      await settle();
      // The worker marks the venue's events after it indexes the venue; changes show after the settle delay.
      await settle();
      await new Promise((resolve) => setTimeout(resolve, testWorld().config.integration.changesSettleMs + 200));
      const next = await follow(copy, since, caller);
      const fresh = await fullCopy(word, caller);
      expect(mine(copy, word)).to.deep.equal(mine(fresh.copy, word));
      expect(idsIn(mine(copy, word))).to.not.include.members([events[2].id, events[3].id]);
      const unpublishedShown = idsIn(mine(copy, word)).includes(events[4].id);
      expect(unpublishedShown).to.equal(role === 'editor');
      expect(mine(copy, word).get(`${events[5].id}/`)?.description).to.equal(role === 'editor' ? 'secret text' : '');
      expect(mine(copy, word).get(`${events[0].id}/`)?.venue?.venue).to.equal(`${word} grand hall`);
      // Nothing new: an empty page keeps the position.
      const idle = await api.get(`/changes?kinds=events&since=${encodeURIComponent(next)}`, asCaller(caller));
      expect(idle.body).to.deep.include({ changes: [], has_more: false });
    });
  }

  for (const role of ['anonymous', 'editor'] as const) {
    it(`followed after a full copy, keeps recurring events' occurrences equal to a fresh copy's (${role})`, async function () {
      this.timeout(120_000);
      const caller = (await callers())[role];
      const word = unique(`series${role}`);
      const venue = await create('/venues', { venue: `${word} hall`, status: 'publish' });
      const event = (name: string, day: number, extra: Record<string, unknown> = {}) =>
        create('/events', {
          title: `${word} ${name}`,
          start_date: daysFromNow(day),
          end_date: daysFromNow(day, '23:00:00'),
          status: 'publish',
          ...extra,
        });
      const weekly = await event('weekly', 3, { venue: venue.id, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'] });
      const daily = await event('daily', 4, { recurrence: ['RRULE:FREQ=DAILY;COUNT=4'] });
      const deleted = await event('deleted', 5, { recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
      const unpublished = await event('unpublished', 6, { recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
      const becomesSeries = await event('single', 7);
      const becomesSingle = await event('ending', 8, { recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
      await settle();
      const { copy, since } = await fullCopy(word, caller);
      expect(copy.size).to.equal(6 + 4 + 3 + 3 + 1 + 3);
      const weeklies = [...copy.values()]
        .filter((entry) => entry.id === weekly.id)
        .sort((a, b) => a.occurrence.index - b.occurrence.index);

      // An occurrence moved and renamed, another cancelled, a rule and a title changed, a series
      // deleted, one unpublished, a single event made a series and a series made single, a new
      // series, and the venue of a series renamed.
      const moved = await api.patch(`/events/${weekly.id}/occurrences/${weeklies[1]!.occurrence.recurrence_id}`, {
        title: `${word} weekly moved`,
        start_date: daysFromNow(12, '10:00:00'),
        end_date: daysFromNow(12, '12:00:00'),
      });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      const cancelled = await api.delete(`/events/${weekly.id}/occurrences/${weeklies[3]!.occurrence.recurrence_id}`);
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.be.oneOf([200, 204]);
      await api.post(`/events/${daily.id}`, {
        title: `${word} daily renamed`,
        recurrence: ['RRULE:FREQ=DAILY;COUNT=2'],
      });
      await api.delete(`/events/${deleted.id}?force=true`);
      await api.post(`/events/${unpublished.id}`, { status: 'draft' });
      await api.post(`/events/${becomesSeries.id}`, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] });
      await api.post(`/events/${becomesSingle.id}`, { recurrence: null });
      const added = await event('added', 9, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'] });
      await api.post(`/venues/${venue.id}`, { venue: `${word} grand hall` });
      await settle();
      await settle();
      await new Promise((resolve) => setTimeout(resolve, testWorld().config.integration.changesSettleMs + 200));

      await follow(copy, since, caller);
      const fresh = await fullCopy(word, caller);
      expect(mine(copy, word)).to.deep.equal(mine(fresh.copy, word));
      const entriesOf = (id: number) => [...copy.values()].filter((entry) => entry.id === id);
      expect(entriesOf(weekly.id)).to.have.length(5);
      expect(entriesOf(weekly.id).map((entry) => entry.title)).to.include(`${word} weekly moved`);
      expect(entriesOf(weekly.id).every((entry) => entry.venue?.venue === `${word} grand hall`)).to.equal(true);
      expect(entriesOf(daily.id).map((entry) => entry.title)).to.deep.equal(Array(2).fill(`${word} daily renamed`));
      expect(entriesOf(deleted.id)).to.deep.equal([]);
      expect(entriesOf(unpublished.id)).to.have.length(role === 'editor' ? 3 : 0);
      expect(entriesOf(becomesSeries.id)).to.have.length(3);
      expect(entriesOf(becomesSingle.id).map(entryKey)).to.deep.equal([`${becomesSingle.id}/`]);
      expect(entriesOf(added.id)).to.have.length(2);
    });
  }

  it('gives a series once its occurrences are searchable (for up to a minute), and nothing after it before', async function () {
    this.timeout(60_000);
    const { services } = testWorld();
    const word = unique('held');
    const single = (name: string) =>
      create('/events', { title: `${word} ${name}`, start_date: daysFromNow(3), end_date: daysFromNow(3, '23:00:00') });
    const series = await create('/events', {
      title: `${word} series`,
      start_date: daysFromNow(4),
      end_date: daysFromNow(4, '23:00:00'),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=2'],
    });
    await settle();
    const start = await api.get(`/events?search=${word}&${WINDOW}&cursor=`, { key: true });
    const since = start.headers.get('x-changes-since')!;
    const before = await single('before');
    await api.post(`/events/${series.id}`, { title: `${word} series renamed` });
    const after = await single('after');
    await settle();
    await new Promise((resolve) => setTimeout(resolve, testWorld().config.integration.changesSettleMs + 200));
    // Indexed, as far as the feed can tell, too recently to be searchable (until a refresh past this time).
    const indexedAt = (at: Date) =>
      services.sync.entries.updateOne({ _id: `event:${series.id}` }, { $set: { attemptedAt: at } });
    await indexedAt(new Date(Date.now() + 3_600_000));
    const page = (token: string, perPage = 10) =>
      api.get(`/changes?kinds=events&per_page=${perPage}&since=${encodeURIComponent(token)}`, { key: true });
    const ids = (res: { body: { changes: { id: number }[] } }) => res.body.changes.map((change) => change.id);

    const held = await page(since, 1000);
    expect(ids(held)).to.include(before.id).and.not.include.members([series.id, after.id]);
    expect(held.body.has_more).to.equal(false);
    // A page that ends at the series says so: nothing more now, the position kept.
    const again = await page(held.body.next_since, 1);
    expect(again.body).to.deep.include({ changes: [], has_more: false });
    const position = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).seq;
    expect(position(again.body.next_since)).to.equal(position(held.body.next_since));

    // Given once its occurrences are searchable; or, should they never be, a minute after its change.
    await services.sync.changes.entries.updateOne(
      { _id: `event:${series.id}` },
      { $set: { at: new Date(Date.now() - SERIES_INDEX_WAIT_MS - 1_000) } },
    );
    const given = await page(held.body.next_since);
    expect(ids(given)).to.deep.equal([series.id, after.id]);
    expect(given.body.changes[0].record.title).to.equal(`${word} series renamed`);
    await indexedAt(new Date());
  });

  it('starts at the oldest change kept, validates its parameters, and refuses a token that was changed', async () => {
    const first = await api.get('/changes?per_page=2', { key: true });
    expect(first.status).to.equal(200);
    expect(first.body.changes).to.have.length(2);
    expect(first.body.has_more).to.equal(true);
    expect(first.body.changes[0]).to.have.all.keys('kind', 'id', 'action', 'modified_utc', 'record');
    expect(first.body.changes[0].modified_utc).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const [body, mac] = first.body.next_since.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...payload, seq: 0 })).toString('base64url')}.${mac}`;
    expectInvalid(await api.get(`/changes?since=${forged}`), 'since');
    expectInvalid(await api.get('/changes?since=nonsense'), 'since');
    expectInvalid(await api.get('/changes?kinds=widgets'), 'kinds');
    expectInvalid(await api.get('/changes?per_page=0'), 'per_page');
    // A cursor is no change token.
    const walk = await api.get('/tags?hide_empty=false&per_page=1&cursor=');
    if (walk.body.next_cursor) expectInvalid(await api.get(`/changes?since=${walk.body.next_cursor}`), 'since');
    const capped = await api.get('/changes?per_page=5000');
    expect(capped.status).to.equal(200);
  });

  it('numbers bulk-created records once each, and moves them to the end when numbered again', async () => {
    const { changes } = testWorld().services.sync;
    const ids = [9_000_001, 9_000_002];
    const tagChanges = ids.map((id) => ({ kind: 'tag' as const, id, version: 1 }));
    const entriesOf = async () =>
      (await changes.after(0, ['tag'], 100_000, new Date(Date.now() + 1000))).filter((e) => ids.includes(e.id));
    await changes.recordNew(tagChanges);
    const first = await entriesOf();
    expect(first.map((e) => e.id)).to.deep.equal(ids);
    expect(first[1]!.seq).to.equal(first[0]!.seq + 1);
    await changes.recordNew(tagChanges);
    const again = await entriesOf();
    expect(again).to.have.length(2);
    expect(again[0]!.seq).to.be.greaterThan(first[1]!.seq);
  });

  it('keeps an entry at the later version when two changes of a record are numbered out of order', async () => {
    const { changes } = testWorld().services.sync;
    const id = 9_100_000 + (Date.now() % 100_000);
    const entryOf = async () =>
      (await changes.after(0, ['tag'], 100_000, new Date(Date.now() + 1000))).find((e) => e.id === id)!;
    await changes.record([{ kind: 'tag', id, version: 5 }]);
    const first = await entryOf();
    expect(first.version).to.equal(5);
    // A change written before (its version is lower) but numbered after: the entry holds the later state already.
    await changes.record([{ kind: 'tag', id, version: 4 }]);
    expect(await entryOf()).to.deep.include({ seq: first.seq, version: 5 });
    await changes.record([{ kind: 'tag', id, version: 6 }]);
    const moved = await entryOf();
    expect(moved.seq).to.be.greaterThan(first.seq);
    expect(moved.version).to.equal(6);
    // An entry logged before versions were moves with the next change.
    await changes.entries.updateOne({ _id: `tag:${id}` }, { $unset: { version: '' } });
    await changes.record([{ kind: 'tag', id, version: 1 }]);
    const again = await entryOf();
    expect(again.seq).to.be.greaterThan(moved.seq);
    expect(again.version).to.equal(1);
  });

  it('serves a follower walking on from one read of the log, and reads it again once anything is written', async () => {
    await settle();
    const { services, config } = testWorld();
    const { changes, marks } = services.sync;
    const settled = () => new Promise((resolve) => setTimeout(resolve, config.integration.changesSettleMs + 100));
    await settled();
    const ids = Array.from({ length: 12 }, (_, i) => 9_200_000 + (Date.now() % 100_000) * 20 + i);
    let token = '';
    for (let feed = { has_more: true, next_since: '' }; feed.has_more;) {
      feed = (await api.get(`/changes?kinds=tags&per_page=1000${token && `&since=${encodeURIComponent(token)}`}`)).body;
      token = feed.next_since;
    }
    // Tags no longer stored: each is given as a delete.
    await changes.record(ids.map((id) => ({ kind: 'tag' as const, id, version: 1 })));
    await settled();
    const reads: number[] = [];
    const after = changes.after;
    changes.after = (seq, ...rest) => (reads.push(seq), after.call(changes, seq, ...rest));
    const page = async (since: string) => {
      const res = await api.get(`/changes?kinds=tags&per_page=2&since=${encodeURIComponent(since)}`);
      expect(res.status).to.equal(200);
      return res.body as { changes: { id: number; action: string }[]; next_since: string; has_more: boolean };
    };
    try {
      const walk = async (since: string, pages: number) => {
        const ids: number[] = [];
        for (let k = 0; k < pages; k++) {
          const body = await page(since);
          ids.push(...body.changes.map((change) => change.id));
          since = body.next_since;
          if (!body.has_more) break;
        }
        return { ids, since };
      };
      const walked = await walk(token, 3);
      expect(walked.ids).to.deep.equal(ids.slice(0, 6));
      // Each read fetches twice the three entries a page asks for: the second page comes from the first's.
      expect(reads).to.have.length(2);

      // Another process moves a record the kept read holds: its write bumps the change marks first.
      await marks.bump(['tag']);
      await changes.record([{ kind: 'tag', id: ids[7]!, version: 2 }]);
      const rest = await walk(walked.since, 10);
      expect(rest.ids).to.deep.equal([ids[6], ...ids.slice(8)]);
      expect(reads).to.have.length.greaterThan(2);
      // Given at its new place once settled.
      await settled();
      expect((await walk(rest.since, 1)).ids).to.deep.equal([ids[7]]);
    } finally {
      changes.after = after;
    }
  });

  it('answers 410 changes-token-expired once the changes after a token are pruned', async () => {
    const token = (await api.get('/changes?per_page=1')).body.next_since;
    const { worker } = testWorld();
    const retention = testWorld().config.integration.changesRetentionMs;
    expect(await worker.pruneChanges(new Date(Date.now() + retention + 60_000))).to.be.greaterThan(0);
    expectError(await api.get(`/changes?since=${encodeURIComponent(token)}`), 410, 'changes-token-expired');
    const restart = await api.get('/changes');
    expect(restart.status).to.equal(200);
  });

  it('never lowers the prune mark: workers pruning side by side leave it at the furthest', async () => {
    const { services, config } = testWorld();
    // A log of its own: the world's mark stays where its pruning left it.
    const db = services.mongo.db(`${config.mongo.database}-marks`);
    const log = new ChangeLog(db);
    const marks = db.collection<{ _id: string }>('change_log_marks');
    try {
      expect(await log.prunedThrough()).to.equal(0);
      await Promise.all([5, 3, 9, 1].map((seq) => log.raisePruneMark(seq)));
      expect(await log.prunedThrough()).to.equal(9);
      // A worker that read the log before another pruned further.
      await log.raisePruneMark(4);
      expect(await log.prunedThrough()).to.equal(9);
      await log.raisePruneMark(12);
      expect(await log.prunedThrough()).to.equal(12);
    } finally {
      await marks.deleteMany({});
    }
  });

  it('sends a page compressed as the client accepts, decoding to the same page, and the same ETag', async () => {
    for (let i = 0; i < 3; i++) await create('/venues', { venue: unique('Compressed') });
    await new Promise((resolve) => setTimeout(resolve, testWorld().config.integration.changesSettleMs + 200));
    const url = `${testWorld().baseUrl}/calendar/events/v1/changes?kinds=venues&per_page=3`;
    const plain = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).to.equal(null);
    const text = await plain.text();
    const page = JSON.parse(text);
    expect(page.changes).to.have.length(3);
    expect(text.length, 'over the compression threshold').to.be.above(1024);
    for (const encoding of ['br', 'gzip']) {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(url, { headers: { 'Accept-Encoding': encoding } });
        expect(res.headers.get('content-encoding'), encoding).to.equal(encoding);
        expect(res.headers.get('vary'), encoding).to.match(/\bAccept-Encoding\b/);
        expect(res.headers.get('etag'), encoding).to.equal(plain.headers.get('etag'));
        // next_since carries the time the last page is assembled at.
        const { next_since: _, ...rest } = JSON.parse(await res.text());
        expect(rest, encoding).to.deep.equal({ changes: page.changes, has_more: page.has_more });
      }
    }
  });

  it('answers 304 to a page revalidated unchanged, a kept full page and the last page alike, and 200 once a record in it changes', async () => {
    await create('/venues', { venue: unique('Tagged') });
    const venue = await create('/venues', { venue: unique('Tagged') });
    await new Promise((resolve) => setTimeout(resolve, testWorld().config.integration.changesSettleMs + 200));
    // The feed's first page of one change (full: other venues changed after it), then the rest.
    const firstPath = '/changes?kinds=venues&per_page=1';
    const first = await api.get(firstPath);
    expect(first.body.has_more).to.equal(true);
    const lastPath = `/changes?kinds=venues&per_page=1000&since=${encodeURIComponent(first.body.next_since)}`;
    const last = await api.get(lastPath);
    expect(last.body.has_more).to.equal(false);
    expect(last.body.changes.map((c: { id: number }) => c.id)).to.include(venue.id);
    for (const [path, etag] of [
      [firstPath, first.headers.get('etag')!],
      [lastPath, last.headers.get('etag')!],
    ] as const) {
      expect(etag, path).to.match(/^W\/"/);
      expect((await api.get(path, { headers: { 'if-none-match': etag } })).status, path).to.equal(304);
    }
    expect((await api.post(`/venues/${venue.id}`, { venue: unique('Retagged') })).status).to.equal(200);
    const changed = await api.get(lastPath, { headers: { 'if-none-match': last.headers.get('etag')! } });
    expect(changed.status).to.equal(200);
  });
});
