import { expect } from 'chai';
import { api } from '../support/api';
import { testWorld, whileWorkerStopped } from '../support/harness';
import { create, daysFromNow, searchReady, settle, unique } from '../support/lists';
import { callers, type Caller } from '../support/access';
import { aliasName } from '../../src/search/indexNames';
import { currentIndexedCopies, latestStatesOf } from '../../src/services/queries/indexedChanges';

type ApiRecord = Record<string, any>;
type Change = { kind: string; id: number; action: string; record: ApiRecord | null };

/** A position in the feed after every change so far (a cursor walk's X-Changes-Since). */
async function position(): Promise<string> {
  const res = await api.get('/tags?hide_empty=false&per_page=1&cursor=');
  expect(res.status).to.equal(200);
  return res.headers.get('x-changes-since')!;
}

/** Once the settle delay has passed, the latest change of each record after `since`, by `kind:id`. */
async function changesAfter(since: string, caller: Caller): Promise<Map<string, Change>> {
  await new Promise((resolve) => setTimeout(resolve, testWorld().config.integration.changesSettleMs + 200));
  const latest = new Map<string, Change>();
  let token = since;
  for (;;) {
    const res = await api.get(
      `/changes?per_page=1000&since=${encodeURIComponent(token)}`,
      caller.key ? { key: caller.key } : {},
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    for (const change of res.body.changes as Change[]) latest.set(`${change.kind}:${change.id}`, change);
    token = res.body.next_since;
    if (!res.body.has_more) return latest;
  }
}

/** The event's record as its index document in English holds it now (realtime). */
async function indexedRecord(id: number): Promise<ApiRecord> {
  const { services, config } = testWorld();
  const doc = await services.search.get<{ record: ApiRecord }>({
    index: aliasName(config, 'event', 'en'),
    id: String(id),
  });
  return doc._source!.record;
}

/** Of these records (sync keys, `event:12`), those whose index copies the feed would serve now, sorted. */
async function servedFromIndex(keys: string[]): Promise<string[]> {
  const { services } = testWorld();
  const all = await services.sync.changes.after(0, undefined, 1_000_000, new Date(Date.now() + 60_000));
  const entries = all.filter((entry) => keys.includes(`${entry.kind}:${entry.id}`));
  expect(entries).to.have.length(keys.length);
  const copies = await currentIndexedCopies(services, entries, 'en', await latestStatesOf(services, entries));
  return [...copies.keys()].sort();
}

const event = (title: string, extra: Record<string, unknown> = {}) =>
  create('/events', {
    title,
    start_date: daysFromNow(3),
    end_date: daysFromNow(3, '23:00:00'),
    status: 'publish',
    ...extra,
  });

describe('the change feed serves index copies only when they hold the latest state (EXTENSIONS 17, CONTRACT part 8)', () => {
  before(async () => {
    await searchReady();
  });

  for (const role of ['anonymous', 'editor'] as const) {
    it(`answers the same records from the index as from MongoDB (${role})`, async function () {
      this.timeout(120_000);
      const caller = (await callers())[role];
      const word = unique('feedsrc');
      const since = await position();
      const venue = await create('/venues', { venue: `${word} hall`, status: 'publish' });
      const draftVenue = await create('/venues', { venue: `${word} back room`, status: 'draft' });
      const tag = await create('/tags', { name: `${word} tag` });
      const category = await create('/categories', { name: `${word} category` });
      const records = [
        await event(`${word} linked`, { venue: venue.id, tags: [tag.id], categories: [category.id] }),
        await event(`${word} protected`, { venue: venue.id, password: 'sesame', description: 'secret' }),
        await event(`${word} draft venue`, { venue: draftVenue.id }),
        await event(`${word} hidden`, { hide_from_listings: true }),
        await event(`${word} unpublished`, { status: 'draft' }),
        await event(`${word} series`, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }),
      ];
      await settle();
      const fromIndex = await changesAfter(since, caller);
      const ids = records.map((record) => record.id as number);
      const keys = [
        ...ids.map((id) => `events:${id}`),
        `venues:${venue.id}`,
        `venues:${draftVenue.id}`,
        `tags:${tag.id}`,
        `categories:${category.id}`,
      ];
      // Anonymous lists never showed the hidden event, the draft and the draft venue: never named.
      const unseen = role === 'editor' ? [] : [`events:${ids[3]}`, `events:${ids[4]}`, `venues:${draftVenue.id}`];
      expect(keys.filter((key) => !fromIndex.has(key))).to.deep.equal(unseen);
      // Every record but the series is served from its index copy, at the version its entry was logged with.
      const indexed = [
        ...ids.slice(0, -1).map((id) => `event:${id}`),
        `venue:${venue.id}`,
        `venue:${draftVenue.id}`,
        `tag:${tag.id}`,
        `category:${category.id}`,
      ];
      expect(await servedFromIndex([...indexed, `event:${ids.at(-1)}`])).to.deep.equal([...indexed].sort());
      // The same records once their index copies are behind (a version bump nothing indexed yet).
      // A series has no copy of its own (it is always read from MongoDB), and the feed holds it
      // back until its occurrences are indexed: it is left as it was.
      const fromStore = await whileWorkerStopped(async () => {
        await testWorld().services.sync.markAllDirty([
          ['event', ids.slice(0, -1)],
          ['venue', [venue.id, draftVenue.id]],
          ['tag', [tag.id]],
          ['category', [category.id]],
        ]);
        expect(await servedFromIndex(indexed)).to.deep.equal([]);
        return changesAfter(since, caller);
      });
      // Each read from the one source, then the other (modified_utc moved with the bump).
      const served = (changes: Map<string, Change>, key: string) => {
        const { action, record } = changes.get(key)!;
        return { action, record };
      };
      expect(keys.filter((key) => !fromStore.has(key))).to.deep.equal(unseen);
      for (const key of keys.filter((key) => !unseen.includes(key)))
        expect(served(fromIndex, key), key).to.deep.equal(served(fromStore, key));
      const shown = (id: number) => fromIndex.get(`events:${id}`)!;
      expect(shown(ids[0]!).record!.venue.venue).to.equal(`${word} hall`);
      expect(shown(ids[0]!).record!.tags[0].count).to.equal(1);
      expect(shown(ids[1]!).record!.description === '').to.equal(role === 'anonymous');
      if (role === 'editor') expect(shown(ids[2]!).record!.venue.venue).to.equal(`${word} back room`);
      else expect(shown(ids[2]!).record!.venue).to.deep.equal([]);
      if (role === 'editor') expect([shown(ids[3]!).action, shown(ids[4]!).action]).to.deep.equal(['upsert', 'upsert']);
      expect(shown(ids[5]!).record!.occurrence).to.equal(null);
      expect(shown(ids[5]!).record!.recurrence).to.deep.equal(['RRULE:FREQ=WEEKLY;COUNT=3']);
      expect(shown(ids[0]!).record).to.not.have.property('recurrence');
      if (role === 'editor') expect(fromIndex.get(`venues:${draftVenue.id}`)!.action).to.equal('upsert');
    });
  }

  it('answers a page of several hundred changes in the log order, as pages of 100 do', async function () {
    this.timeout(60_000);
    const word = unique('feedlong');
    const since = await position();
    const before = await event(`${word} first`);
    // Records never created (IDs no counter reaches): deletes, numbered in one block.
    const gone = Array.from({ length: 600 }, (_, i) => 8_000_000 + (Date.now() % 100_000) * 1_000 + i);
    await testWorld().services.sync.changes.recordNew(gone.map((id) => ({ kind: 'tag', id, version: 1 })));
    const after = await event(`${word} last`);
    await settle();
    await new Promise((resolve) => setTimeout(resolve, testWorld().config.integration.changesSettleMs + 200));
    const pageOf = async (perPage: number, token: string) => {
      const res = await api.get(`/changes?per_page=${perPage}&since=${encodeURIComponent(token)}`);
      expect(res.status).to.equal(200);
      return res.body as { changes: Change[]; next_since: string; has_more: boolean };
    };
    const whole = await pageOf(1000, since);
    expect(whole.has_more).to.equal(false);
    const walked: Change[] = [];
    for (let token = since, more = true; more;) {
      const page = await pageOf(100, token);
      walked.push(...page.changes);
      [token, more] = [page.next_since, page.has_more];
    }
    expect(whole.changes).to.deep.equal(walked);
    const ids = whole.changes.map((change) => change.id);
    expect(ids.indexOf(before.id)).to.be.below(ids.indexOf(gone[0]!));
    expect(ids.indexOf(after.id)).to.be.above(ids.indexOf(gone[599]!));
    expect(whole.changes.filter((change) => gone.includes(change.id)).map((change) => change.action)).to.deep.equal(
      gone.map(() => 'delete'),
    );
    expect(whole.changes.find((change) => change.id === after.id)?.record?.title).to.equal(`${word} last`);
  });

  it("names a record gone only to callers whose lists showed it: never someone else's draft or an unlisted event", async function () {
    this.timeout(60_000);
    const { anonymous, author, editor } = await callers();
    const word = unique('feedunseen');
    const since = await position();
    const draft = await event(`${word} draft`, { status: 'draft' });
    await api.post(`/events/${draft.id}`, { title: `${word} draft renamed` });
    await api.delete(`/events/${draft.id}?force=true`);
    const hidden = await event(`${word} hidden`, { hide_from_listings: true });
    await api.delete(`/events/${hidden.id}?force=true`);
    const draftVenue = await create('/venues', { venue: `${word} back room`, status: 'draft' });
    await event(`${word} at the back`, { venue: draftVenue.id });
    const written = await api.post(
      '/events',
      { title: `${word} own`, start_date: daysFromNow(3), end_date: daysFromNow(3, '23:00:00'), status: 'draft' },
      { key: author.key! },
    );
    expect(written.status, JSON.stringify(written.body)).to.equal(201);
    const own = written.body as ApiRecord;
    expect((await api.delete(`/events/${own.id}`, { key: author.key! })).status).to.equal(200);
    const unpublished = await event(`${word} unpublished`);
    await api.post(`/events/${unpublished.id}`, { status: 'draft' });
    const deleted = await event(`${word} deleted`);
    await api.delete(`/events/${deleted.id}?force=true`);
    const flickered = await event(`${word} flickered`, { status: 'draft' });
    await api.post(`/events/${flickered.id}`, { status: 'publish' });
    await api.post(`/events/${flickered.id}`, { status: 'draft' });
    await settle();
    const records = { draft, hidden, own, unpublished, deleted, flickered };
    const seenBy = async (caller: Caller) => {
      const changes = await changesAfter(since, caller);
      return {
        ...Object.fromEntries(
          Object.entries(records).map(([name, { id }]) => [name, changes.get(`events:${id}`)?.action ?? null]),
        ),
        draftVenue: changes.get(`venues:${draftVenue.id}`)?.action ?? null,
      };
    };
    const gone = { unpublished: 'delete', deleted: 'delete', flickered: 'delete' };
    expect(await seenBy(anonymous)).to.deep.equal({ draft: null, hidden: null, own: null, draftVenue: null, ...gone });
    expect(await seenBy(author)).to.deep.equal({ draft: null, hidden: null, own: 'delete', draftVenue: null, ...gone });
    expect(await seenBy(editor)).to.deep.equal({
      draft: 'delete',
      hidden: 'delete',
      own: 'delete',
      draftVenue: 'upsert',
      unpublished: 'upsert',
      deleted: 'delete',
      flickered: 'upsert',
    });
    // An entry logged before audiences were may have been shown to anyone. The first start on a
    // database from before them (without the mark saying its log was given audiences) says so in
    // the log; later starts do not scan it again.
    const { db, sync } = testWorld().services;
    const { changes } = sync;
    const audienceOfDraft = async () => (await changes.entries.findOne({ _id: `event:${draft.id}` }))?.audience;
    await changes.entries.updateOne({ _id: `event:${draft.id}` }, { $unset: { audience: '' } });
    expect((await changesAfter(since, anonymous)).get(`events:${draft.id}`)?.action).to.equal('delete');
    await changes.ensureIndexes();
    expect(await audienceOfDraft(), 'marked at the first start: not scanned').to.equal(undefined);
    await db.collection<{ _id: string }>('change_log_marks').deleteOne({ _id: 'audiences' });
    await changes.ensureIndexes();
    expect(await audienceOfDraft()).to.deep.equal(['everyone']);
  });

  it('serves a record changed but not indexed yet at its latest state, and a record no longer listed as a delete', async function () {
    this.timeout(60_000);
    const { anonymous } = await callers();
    const word = unique('feedlate');
    const renamed = await event(`${word} before`);
    const unpublished = await event(`${word} listed`);
    await settle();
    const since = await position();
    const changes = await whileWorkerStopped(async () => {
      await api.post(`/events/${renamed.id}`, { title: `${word} after` });
      await api.post(`/events/${unpublished.id}`, { status: 'draft' });
      // The index copies are still those before the writes.
      expect((await indexedRecord(renamed.id)).title).to.equal(`${word} before`);
      expect((await indexedRecord(unpublished.id)).status).to.equal('publish');
      return changesAfter(since, anonymous);
    });
    expect(changes.get(`events:${renamed.id}`)?.record?.title).to.equal(`${word} after`);
    expect(changes.get(`events:${unpublished.id}`)).to.deep.include({ action: 'delete', record: null });
  });

  it('serves a record an earlier page presented only while it is current: for that caller, with the term counts of now, nothing it embeds pending', async function () {
    this.timeout(60_000);
    const { anonymous, editor } = await callers();
    const word = unique('feedkept');
    const since = await position();
    const tag = await create('/tags', { name: `${word} tag` });
    const venue = await create('/venues', { venue: `${word} hall`, status: 'publish' });
    const kept = await event(`${word} protected`, {
      venue: venue.id,
      tags: [tag.id],
      password: 'sesame',
      description: 'secret',
    });
    await settle();
    const shown = async (caller: Caller) => {
      const changes = await changesAfter(since, caller);
      return { event: changes.get(`events:${kept.id}`)!.record!, tag: changes.get(`tags:${tag.id}`)!.record! };
    };
    const first = await shown(anonymous);
    expect(first.event.description).to.equal('');
    expect(first.event.tags[0].count).to.equal(1);
    expect(first.tag.count).to.equal(1);
    const asEditor = await shown(editor);
    expect(asEditor.event.description).to.not.equal('');
    expect(asEditor.event.venue.venue).to.equal(`${word} hall`);
    expect((await shown(anonymous)).event.description).to.equal('');
    // The tag's count moves with another event, not with a version of the first.
    await event(`${word} second`, { tags: [tag.id] });
    await settle();
    const counted = await shown(anonymous);
    expect(counted.event.tags[0].count).to.equal(2);
    expect(counted.tag.count).to.equal(2);
    expect((await shown(editor)).event.tags[0].count).to.equal(2);
    const renamed = await whileWorkerStopped(async () => {
      // The event's copy is still at its version; the venue it embeds waits for the worker.
      await api.post(`/venues/${venue.id}`, { venue: `${word} grand hall` });
      return (await shown(editor)).event;
    });
    expect(renamed.venue.venue).to.equal(`${word} grand hall`);
    expect(renamed.tags[0].count).to.equal(2);
  });

  it('serves an event at its latest state while a record it embeds waits for the worker', async function () {
    this.timeout(60_000);
    const { anonymous } = await callers();
    const word = unique('feedlink');
    const venue = await create('/venues', { venue: `${word} hall`, status: 'publish' });
    const linked = await event(`${word} event`, { venue: venue.id });
    await settle();
    const since = await position();
    await api.post(`/events/${linked.id}`, { title: `${word} event renamed` });
    await settle();
    const changes = await whileWorkerStopped(async () => {
      // The event's copy is indexed at its current version; what it embeds changes after.
      await api.post(`/venues/${venue.id}`, { venue: `${word} grand hall` });
      expect((await indexedRecord(linked.id)).venue.venue).to.equal(`${word} hall`);
      return changesAfter(since, anonymous);
    });
    expect(changes.get(`events:${linked.id}`)?.record).to.deep.include({ title: `${word} event renamed` });
    expect(changes.get(`events:${linked.id}`)?.record?.venue.venue).to.equal(`${word} grand hall`);
  });
});
