import { expect } from 'chai';
import { LANGUAGES } from '../../config';
import { ConflictError } from '../../src/domain/errors';
import { formatVerifyReport, verifySync } from '../../src/tools/verify/verify';
import { aliasName } from '../../src/search/indexNames';
import { nextId, nextIds } from '../../src/storage/counters';
import { TREE_WAIT_MS, TreeLock } from '../../src/storage/treeLock';
import { testWorld } from '../support/harness';
import { call, until, type Answer } from './support/http';
import { compareIndexWithDatabase, describeDifferences } from './support/indexMatches';
import { PrivateMongo } from './support/privateServers';
import { openPrivateWorld, type PrivateWorld } from './support/privateWorld';
import { eventBody } from './support/writes';

const ROOT = '/calendar/events/v1';

describe('reliability: racing writes', function () {
  this.timeout(120_000);
  let mongo: PrivateMongo;
  let world: PrivateWorld;
  const figures: string[] = [];
  const send = (method: string, path: string, body?: unknown) =>
    call(world.baseUrl, method, `${ROOT}${path}`, body, { key: world.adminKey });
  const all = (count: number, request: (i: number) => Promise<Answer>) =>
    Promise.all(Array.from({ length: count }, (_, i) => request(i)));
  const statuses = (answers: Answer[]) =>
    answers.map((res) => `${res.status}${res.status >= 300 ? ` ${JSON.stringify(res.body)}` : ''}`);

  async function indexMatchesDatabase(): Promise<void> {
    await until(async () => (await world.services.sync.backlog()).pending === 0, 60_000, 'the sync backlog to drain');
    const verified = await verifySync(world.services);
    expect(verified.inSync, formatVerifyReport(verified).join('\n')).to.equal(true);
    const comparison = await compareIndexWithDatabase(world.services);
    expect(comparison.differences, describeDifferences(comparison)).to.deep.equal([]);
  }

  before(async () => {
    mongo = await PrivateMongo.start('races');
    world = await openPrivateWorld({ mongoUrl: mongo.url, elasticsearchUrl: testWorld().config.elasticsearch.url! });
  });

  after(async () => {
    if (figures.length) console.log(`      figures:\n${figures.map((line) => `        ${line}`).join('\n')}`);
    await world?.close();
    await mongo?.cleanup();
  });

  it('50 concurrent updates of one event leave the index and the database identical', async () => {
    const event = (await send('POST', '/events', eventBody('Race target'))).body;
    await send('POST', `/events/${event.id}`, { title: 'Cible', i18n_language: 'fr' });
    const answers = await all(50, (i) =>
      send(['POST', 'PUT', 'PATCH'][i % 3]!, `/events/${event.id}`, {
        title: `Race ${i}`,
        description: `<p>Written by writer ${i}</p>`,
        featured: i % 2 === 0,
        cost: i,
        ...(i % 5 === 0 ? { i18n_language: 'fr' } : {}),
      }),
    );
    expect(statuses(answers)).to.deep.equal(answers.map(() => '200'));
    await indexMatchesDatabase();
    // Fields written by one operation come from one writer.
    const stored = (await world.services.stores.events.get(event.id))!;
    for (const doc of Object.values(stored.docs))
      expect(doc!.description).to.equal(`<p>Written by writer ${/\d+/.exec(doc!.title)![0]}</p>`);
    figures.push(`50 concurrent updates of event ${event.id}: all 200, index = database`);
  });

  it('concurrent renames of a venue used by many events converge on its final name everywhere', async () => {
    const venue = (await send('POST', '/venues', { venue: 'Hall zero' })).body;
    const events = await all(30, (i) => send('POST', '/events', eventBody(`Concert ${i}`, { venue: venue.id })));
    expect(statuses(events)).to.deep.equal(events.map(() => '201'));
    const renames = await all(20, (i) => send('PATCH', `/venues/${venue.id}`, { venue: `Hall ${i + 1}` }));
    expect(statuses(renames)).to.deep.equal(renames.map(() => '200'));
    await indexMatchesDatabase();
    const finalName = (await world.services.stores.venues.get(venue.id))!.docs.en!.venue;
    for (const lang of LANGUAGES) {
      const indexed = await world.services.search.search<{ record: { venue: { venue: string } } }>({
        index: aliasName(world.config, 'event', lang),
        query: { terms: { id: events.map((res) => res.body.id) } },
        size: 100,
        _source: ['record.venue'],
      });
      expect(indexed.hits.hits.map((hit) => hit._source!.record.venue.venue)).to.deep.equal(
        events.map(() => finalName),
      );
    }
    figures.push(
      `20 concurrent renames of venue ${venue.id} used by 30 events: every event indexed with "${finalName}" in ${LANGUAGES.length} languages`,
    );
  });

  it('concurrent first translations of one record: every write succeeds, one language document', async () => {
    const event = (await send('POST', '/events', eventBody('Race translated'))).body;
    const venue = (await send('POST', '/venues', { venue: 'Race hall' })).body;
    const answers = [
      ...(await all(6, (i) => send('PATCH', `/events/${event.id}?i18n_language=fr`, { title: `Soir ${i}` }))),
      ...(await all(6, (i) => send('PATCH', `/venues/${venue.id}?i18n_language=de`, { venue: `Halle ${i}` }))),
    ];
    expect(statuses(answers)).to.deep.equal(answers.map(() => '200'));
    const french = (await send('GET', `/events/${event.id}?i18n_language=fr`)).body;
    expect(french.title).to.match(/^Soir [0-5]$/);
    expect(await world.services.stores.events.docs.countDocuments({ id: event.id, lang: 'fr' })).to.equal(1);
    expect((await send('GET', `/venues/${venue.id}?i18n_language=de`)).body.venue).to.match(/^Halle [0-5]$/);
    await indexMatchesDatabase();
  });

  it("a permanent delete meeting another process's update of the record is a 409 and leaves it whole", async () => {
    const { events } = world.services.stores;
    const { id } = (await send('POST', '/events', eventBody('Race deleted'))).body;
    const read = (await events.get(id))!;
    // As another process would: the delete comes while this update holds the record's claim.
    let removal: unknown;
    const updated = await events.update(read, 'de', async () => {
      removal = await events.remove(read).then(
        () => 'removed',
        (err: unknown) => err,
      );
      return { title: 'Rennen' };
    });
    expect(removal).to.be.instanceOf(ConflictError);
    expect(Object.keys(updated.docs).sort()).to.deep.equal(['de', 'en']);
    // A delete from the record as read before that update is refused too; from a fresh read, it goes.
    expect(await events.remove(read).catch((err: unknown) => err)).to.be.instanceOf(ConflictError);
    expect((await send('DELETE', `/events/${id}?force=true`)).status).to.equal(200);
    expect(await events.get(id)).to.equal(null);
    expect((await send('PATCH', `/events/${id}`, { title: 'Back?' })).status).to.equal(404);
    await indexMatchesDatabase();
  });

  it("a parent deleted while another process's write adds a child's translation: every language gets the new parent", async () => {
    const { categories } = world.services.stores;
    const top = (await send('POST', '/categories', { name: 'Race top' })).body.id as number;
    const middle = (await send('POST', '/categories', { name: 'Race middle', parent: top })).body.id as number;
    const child = (await send('POST', '/categories', { name: 'Race child', parent: middle })).body.id as number;
    let deletion: Promise<Answer> | undefined;
    await categories.update((await categories.get(child))!, 'de', async () => {
      // The delete moves the children up while this write holds the child (as another process would).
      deletion = send('DELETE', `/categories/${middle}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { name: 'Rennkind' };
    });
    expect((await deletion!).status).to.equal(200);
    const docs = await categories.docs.find({ id: child }).toArray();
    expect(docs.map((doc) => [doc.lang, doc.parent]).sort()).to.deep.equal([
      ['de', top],
      ['en', top],
    ]);
    await indexMatchesDatabase();
  });

  it('deleting a parent and its child at once neither stalls nor leaves a deleted parent', async () => {
    for (const [kind, field, query] of [
      ['categories', 'parent', ''],
      ['events', 'post_parent', '?force=true'],
    ] as const) {
      const make = async (fields: Record<string, unknown>) =>
        (
          await send(
            'POST',
            `/${kind}`,
            kind === 'events' ? eventBody('Race tree', fields) : { name: 'Race tree', ...fields },
          )
        ).body.id as number;
      const parent = await make({});
      const child = await make({ [field]: parent });
      const grandchild = await make({ [field]: child });
      const started = Date.now();
      const answers = await Promise.all([
        send('DELETE', `/${kind}/${child}${query}`),
        send('DELETE', `/${kind}/${parent}${query}`),
      ]);
      expect(statuses(answers), kind).to.deep.equal(['200', '200']);
      expect(Date.now() - started, `${kind}: both deletes took`).to.be.below(5_000);
      expect((await send('GET', `/${kind}/${grandchild}`)).body[field], kind).to.equal(0);
    }
    await indexMatchesDatabase();
  });

  it('concurrent ID allocation never hands out one ID twice, one at a time or in blocks', async () => {
    const { db } = world.services;
    const ids: number[] = [];
    for (let round = 0; round < 10; round++) {
      // Half single IDs, half blocks of 2-6 consecutive IDs (bulk loads), all at once.
      const allocations = Array.from({ length: 40 }, async (_, i): Promise<number[]> => {
        if (i % 2 === 0) return [await nextId(db, 'user')];
        const count = 2 + (i % 5);
        const first = await nextIds(db, 'user', count);
        return Array.from({ length: count }, (_, k) => first + k);
      });
      for (const block of await Promise.all(allocations)) ids.push(...block);
    }
    expect(new Set(ids).size).to.equal(ids.length);
    figures.push(`${ids.length} IDs allocated by 40 concurrent calls at a time, singly and in blocks: all distinct`);
  });

  it('concurrent creates with the same title get distinct slugs', async () => {
    const events = await all(20, () => send('POST', '/events', eventBody('Same title')));
    const venues = await all(10, () => send('POST', '/venues', { venue: 'Same hall' }));
    expect(statuses([...events, ...venues])).to.deep.equal([...events.map(() => '201'), ...venues.map(() => '201')]);
    const eventSlugs = new Set(events.map((res) => res.body.slug));
    const venueSlugs = new Set(venues.map((res) => res.body.slug));
    expect(eventSlugs.size).to.equal(20);
    expect(venueSlugs.size).to.equal(10);
    expect([...eventSlugs].every((slug) => /^same-title(-\d+)?$/.test(slug))).to.equal(true);
    for (const res of events)
      expect((await send('GET', `/events/by-slug/${res.body.slug}`)).body.id).to.equal(res.body.id);
    await indexMatchesDatabase();
    figures.push(
      `20 concurrent creates of "Same title" and 10 of "Same hall": ${eventSlugs.size} + ${venueSlugs.size} distinct slugs`,
    );
  });

  it('a crowd of writers wanting one slug all succeed: creates, then renames, each slug naming its record', async () => {
    const distinctAndAddressable = async (answers: Answer[]) => {
      expect(new Set(answers.map((res) => res.body.slug)).size).to.equal(answers.length);
      for (const res of answers) {
        const read = await send('GET', `/organizers/by-slug/${res.body.slug}`);
        expect(read.body, `${res.body.slug}: ${JSON.stringify(read.body)}`).to.include({ id: res.body.id });
      }
    };
    const created = await all(60, () => send('POST', '/organizers', { organizer: 'Crowded name' }));
    expect(statuses(created)).to.deep.equal(created.map(() => '201'));
    await distinctAndAddressable(created);
    const renamed = await all(60, (i) => send('PATCH', `/organizers/${created[i]!.body.id}`, { slug: 'crowded-slug' }));
    expect(statuses(renamed)).to.deep.equal(renamed.map(() => '200'));
    await distinctAndAddressable(renamed);
    // No write is left holding a record: each takes another change at once.
    const next = await all(60, (i) => send('PATCH', `/organizers/${created[i]!.body.id}`, { city: 'Lyon' }));
    expect(statuses(next)).to.deep.equal(next.map(() => '200'));
    await indexMatchesDatabase();
    figures.push('60 concurrent creates of "Crowded name", then 60 renames to "crowded-slug": 60 + 60 distinct slugs');
  });

  it('concurrent term creation by name does not duplicate the term', async () => {
    const events = await all(20, (i) =>
      send(
        'POST',
        '/events',
        eventBody(`Jam ${i}`, { categories: ['Concurrent Jazz'], tags: ['late night', `own ${i}`] }),
      ),
    );
    expect(statuses(events)).to.deep.equal(events.map(() => '201'));
    const categories = await world.services.stores.categories.docs.find({ name: 'Concurrent Jazz' }).toArray();
    const tags = await world.services.stores.tags.docs.find({ name: 'late night' }).toArray();
    expect(categories.map((doc) => doc.id)).to.have.length(1);
    expect(tags.map((doc) => doc.id)).to.have.length(1);
    for (const res of events) {
      expect(res.body.categories.map((term: { id: number }) => term.id)).to.deep.equal([categories[0]!.id]);
      expect(res.body.tags[0].id).to.equal(tags[0]!.id);
    }
    await indexMatchesDatabase();
    const listed = await call(world.baseUrl, 'GET', `${ROOT}/categories?search=concurrent`);
    expect(listed.body.categories.map((term: { id: number; count: number }) => [term.id, term.count])).to.deep.equal([
      [categories[0]!.id, 20],
    ]);
    figures.push(`20 concurrent events naming a new category and tag: 1 category (count 20), 1 tag`);
  });
  describe('re-parenting two records under each other at once', () => {
    const cases = [
      { plural: 'categories', field: 'parent', create: (name: string) => ({ name }) },
      { plural: 'events', field: 'post_parent', create: (name: string) => eventBody(name) },
    ];
    for (const { plural, field, create } of cases) {
      it(`${plural}: one write wins, the other is 400, and no cycle forms`, async () => {
        for (let round = 0; round < 6; round++) {
          const [x, y] = (await all(2, (i) => send('POST', `/${plural}`, create(`Tree ${round} ${i}`)))).map(
            (res) => res.body as { id: number },
          );
          const answers = await Promise.all([
            send('PATCH', `/${plural}/${x!.id}`, { [field]: y!.id }),
            send('PATCH', `/${plural}/${y!.id}`, { [field]: x!.id }),
          ]);
          expect(
            statuses(answers)
              .map((status) => status.slice(0, 3))
              .sort(),
            `round ${round}`,
          ).to.deep.equal(['200', '400']);
          const refused = answers.find((res) => res.status === 400)!;
          expect(refused.body.code).to.equal('rest_invalid_param');
          expect(Object.keys(refused.body.data.params)).to.deep.equal([field]);
          const parents = [
            (await send('GET', `/${plural}/${x!.id}`)).body[field],
            (await send('GET', `/${plural}/${y!.id}`)).body[field],
          ];
          // Exactly the winner's parent is set: the loser's write, which would close the cycle, is not.
          const winner = answers.findIndex((res) => res.status === 200);
          expect(parents, `round ${round}`).to.deep.equal(winner === 0 ? [y!.id, 0] : [0, x!.id]);
        }
        figures.push(`6 rounds of two ${plural} re-parented under each other at once: never a cycle`);
      });
    }

    it('re-parents, creates with a parent and deletes wait for another process holding the tree, then are 409, changing nothing', async () => {
      const [child, parent] = (await all(2, (i) => send('POST', '/categories', { name: `Held ${i}` }))).map(
        (res) => res.body as { id: number },
      );
      const otherProcess = new TreeLock(world.services.db, 'categories.parent', 'category hierarchy');
      /** Holds the lock from another "process" until released; resolves once it is held. */
      const holding = () =>
        new Promise<{ release(): Promise<void> }>((held) => {
          let release = () => {};
          const done = otherProcess.hold(
            () =>
              new Promise<void>((resolve) => {
                release = resolve;
                held({ release: () => (release(), done) });
              }),
          );
        });

      let lock = await holding();
      setTimeout(() => void lock.release(), 300);
      const waited = await send('PATCH', `/categories/${child!.id}`, { parent: parent!.id });
      expect(waited.status, JSON.stringify(waited.body)).to.equal(200);
      expect(waited.body.parent).to.equal(parent!.id);

      lock = await holding();
      const name = `Born under ${parent!.id}`;
      const refused = [
        await send('PATCH', `/categories/${child!.id}`, { parent: parent!.id, name: 'Moved' }),
        await send('POST', '/categories', { name, parent: parent!.id }),
        await send('DELETE', `/categories/${parent!.id}`),
      ];
      // Input errors other than the parent's are found before the lock is taken: 400 at once, not 409.
      const invalid = await send('PATCH', `/categories/${child!.id}`, {
        parent: parent!.id,
        description: '&'.repeat(20_000),
      });
      await lock.release();
      expect(invalid.status, JSON.stringify(invalid.body)).to.equal(400);
      expect(Object.keys(invalid.body.data.params)).to.deep.equal(['description']);
      expect(statuses(refused).map((status) => status.slice(0, 3))).to.deep.equal(['409', '409', '409']);
      for (const res of refused) expect(res.body.code).to.equal('rest_conflict');
      expect((await send('GET', `/categories/${child!.id}`)).body).to.include({ name: 'Held 0', parent: parent!.id });
      expect((await send('GET', `/categories/${parent!.id}`)).status).to.equal(200);
      expect(await world.services.stores.categories.docs.countDocuments({ name })).to.equal(0);
      figures.push(
        `a re-parent, a create with a parent and a delete wait up to ${TREE_WAIT_MS} ms for another process's, then 409`,
      );
    });
  });
});
