import { expect } from 'chai';
import { api } from '../support/api';
import { testWorld } from '../support/harness';
import { create, daysFromNow, searchReady, settle, unique, writeIndexed } from '../support/lists';
import { callers, as } from '../support/access';
import { expectError } from '../support/errors';
import { exportOf, walk } from '../support/walks';
import { issueCursor } from '../../src/http/cursor';
import { tokenSecretOf } from '../../src/storage/tokenSecret';

const WINDOW = 'start_date=2000-01-01&end_date=2100-01-01';

describe('list cursors and exports (EXTENSIONS 16)', () => {
  const word = unique('cursorwalk');
  const ids: number[] = [];

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    for (let i = 0; i < 23; i++) {
      const event = await create('/events', {
        title: `${word} ${i}`,
        start_date: daysFromNow(10 + (i % 5)),
        end_date: daysFromNow(10 + (i % 5), '23:00:00'),
        status: 'publish',
      });
      ids.push(event.id);
    }
    await settle();
  });

  it('walks a list in one snapshot: no duplicates, none missing, while records are created, changed and trashed', async () => {
    const path = `/events?search=${word}&per_page=4&${WINDOW}`;
    const made: number[] = [];
    const { ids: walked, pages } = await walk(path, {}, async (page) => {
      if (page === 1)
        made.push(
          (
            await writeIndexed('POST', '/events', {
              title: `${word} late`,
              start_date: daysFromNow(9),
              end_date: daysFromNow(9, '23:00:00'),
              status: 'publish',
            })
          ).body.id,
        );
      if (page === 2) await writeIndexed('DELETE', `/events/${ids[20]}`);
      if (page === 3) await writeIndexed('POST', `/events/${ids[21]}`, { start_date: daysFromNow(1) });
    });
    expect(walked).to.have.length(ids.length);
    expect(new Set(walked).size).to.equal(walked.length);
    expect([...walked].sort((a, b) => a - b)).to.deep.equal([...ids].sort((a, b) => a - b));
    expect(pages[0]!.body.total).to.equal(ids.length);
    expect(pages[0]!.headers.get('x-changes-since')).to.be.a('string');
    // next_rest_url and Link carry the cursor; the last page has none.
    const first = pages[0]!;
    expect(first.body.next_rest_url).to.include(`cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(first.headers.get('link')).to.equal(`<${first.body.next_rest_url}>; rel="next"`);
    expect(pages.at(-1)!.body).to.not.have.property('next_rest_url');
    // A new walk sees the writes.
    const again = await walk(path);
    expect(again.ids).to.include(made[0]).and.not.include(ids[20]);
    await writeIndexed('POST', `/events/${ids[20]}`, { status: 'publish' });
  });

  it('refuses a cursor that was changed, is for another list, filter set or caller, or is sent with page', async () => {
    const path = `/events?search=${word}&per_page=3&${WINDOW}`;
    const first = await api.get(`${path}&cursor=`);
    const cursor = first.body.next_cursor as string;
    const [body, mac] = cursor.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...payload, n: 0 })).toString('base64url')}.${mac}`;
    for (const [what, url, options] of [
      ['tampered', `${path}&cursor=${forged}`, {}],
      ['garbage', `${path}&cursor=not-a-cursor`, {}],
      ['other filters', `/events?search=${word}x&per_page=3&${WINDOW}&cursor=${cursor}`, {}],
      ['other list', `/venues?cursor=${cursor}`, {}],
      ['other caller', `${path}&cursor=${cursor}`, { key: true as const }],
    ] as const) {
      const res = await api.get(url, options);
      expectError(res, 400, 'rest_invalid_param');
      expect(res.body.data.params, what).to.have.property('cursor');
    }
    const withPage = await api.get(`${path}&page=2&cursor=${cursor}`);
    expectError(withPage, 400, 'rest_invalid_param');
    expect(withPage.body.data.params).to.have.property('page');
    // A cursor issued to an administrator is not replayed anonymously, nor the reverse.
    const adminFirst = await api.get(`${path}&cursor=`, { key: true });
    expectError(await api.get(`${path}&cursor=${adminFirst.body.next_cursor}`), 400, 'rest_invalid_param');
    // The cursor is validated apart from the rest of the list's parameters: each is named, both together.
    for (const [url, named] of [
      [`${path}&cursor=${'a'.repeat(4097)}`, ['cursor']],
      [`${path}&cursor[]=${cursor}`, ['cursor']],
      [`/events?search=${word}&per_page=none&${WINDOW}&cursor=${cursor}`, ['per_page']],
      [`/events?search=${word}&per_page=none&${WINDOW}&cursor=${'a'.repeat(4097)}`, ['cursor', 'per_page']],
    ] as const) {
      const res = await api.get(url);
      expectError(res, 400, 'rest_invalid_param');
      expect(Object.keys(res.body.data.params).sort(), url.slice(-40)).to.deep.equal(named);
    }
  });

  it('keeps the snapshot 5 minutes after each page, the last too: a page asked for again answers the same', async () => {
    const { pages, urls } = await walk(`/events?search=${word}&per_page=10&${WINDOW}`);
    expect(pages.length).to.be.above(1);
    for (const [i, url] of [...urls.entries()].reverse()) {
      const again = await api.get(url);
      expect(again.status, `page ${i + 1}: ${JSON.stringify(again.body)}`).to.equal(200);
      expect(again.body.events, `page ${i + 1}`).to.deep.equal(pages[i]!.body.events);
    }
  });

  it('answers 304 to a cursor page revalidated unchanged, and 200 with another tag once what it shows changes', async () => {
    const tagged = unique('cursortag');
    const term = await create('/tags', { name: `${tagged} tag` });
    for (let i = 0; i < 5; i++) {
      await create('/events', {
        title: `${tagged} ${i}`,
        start_date: daysFromNow(12),
        end_date: daysFromNow(12, '23:00:00'),
        status: 'publish',
        tags: [term.id],
      });
    }
    await settle();
    const { pages, urls } = await walk(`/events?search=${tagged}&per_page=2&${WINDOW}`);
    expect(pages).to.have.length(3);
    // The first page opens a walk of its own each time; the pages after it are the walk's.
    const [tag, other] = [pages[1]!.headers.get('etag')!, pages[2]!.headers.get('etag')!];
    expect(tag).to.match(/^W\/"/);
    expect(other).to.not.equal(tag);
    const unchanged = await api.get(urls[1]!, { headers: { 'If-None-Match': tag } });
    expect(unchanged.status).to.equal(304);
    expect(unchanged.headers.get('etag')).to.equal(tag);

    // The snapshot keeps the records as they were; the term counts they show are today's.
    await create('/events', {
      title: `another ${unique('counted')}`,
      start_date: daysFromNow(12),
      end_date: daysFromNow(12, '23:00:00'),
      status: 'publish',
      tags: [term.id],
    });
    await settle();
    const counted = await api.get(urls[1]!, { headers: { 'If-None-Match': tag } });
    expect(counted.status).to.equal(200);
    expect(counted.headers.get('etag')).to.not.equal(tag);
    expect(counted.body.events.map((e: { id: number }) => e.id)).to.deep.equal(
      pages[1]!.body.events.map((e: { id: number }) => e.id),
    );
    expect(counted.body.events[0].tags[0].count).to.equal(6);
  });

  for (const [plural, field] of [
    ['venues', 'venue'],
    ['tags', 'name'],
  ] as const) {
    it(`answers 304 to a cursor page of ${plural} revalidated unchanged, though its next cursor is signed anew`, async () => {
      const word = unique(`cursor${plural}`);
      for (let i = 0; i < 5; i++) await create(`/${plural}`, { [field]: `${word} ${i}`, status: 'publish' });
      await settle();
      const { pages, urls } = await walk(`/${plural}?search=${word}&per_page=2&hide_empty=false`);
      // The middle page hands on a cursor, signed anew on every answer.
      expect(pages).to.have.length(3);
      expect(pages[1]!.body.next_cursor).to.be.a('string');
      const tag = pages[1]!.headers.get('etag')!;
      expect(tag).to.match(/^W\/"/);
      expect(pages[0]!.headers.get('etag')).to.not.equal(tag);
      const unchanged = await api.get(urls[1]!, { headers: { 'If-None-Match': tag } });
      expect(unchanged.status).to.equal(304);
      expect(unchanged.headers.get('etag')).to.equal(tag);
      const fetched = await api.get(urls[1]!);
      expect(fetched.headers.get('etag')).to.equal(tag);
      expect(fetched.body[plural]).to.deep.equal(pages[1]!.body[plural]);
    });
  }

  it('answers 410 cursor-expired once the snapshot is gone', async () => {
    const path = `/events?search=${word}&per_page=3&${WINDOW}`;
    const first = await api.get(`${path}&cursor=`);
    const payload = JSON.parse(Buffer.from(first.body.next_cursor.split('.')[0], 'base64url').toString());
    await testWorld().services.search.closePointInTime({ id: payload.p });
    expectError(await api.get(`${path}&cursor=${first.body.next_cursor}`), 410, 'cursor-expired');
  });

  it('answers 410 cursor-expired to a cursor whose position no longer fits the order (a release changed the sort)', async () => {
    const { services, config } = testWorld();
    const path = `/events?search=${word}&per_page=3&orderby=modified&${WINDOW}`;
    const first = await api.get(`${path}&cursor=`);
    const payload = JSON.parse(Buffer.from(first.body.next_cursor.split('.')[0], 'base64url').toString());
    // As issued before `orderby=modified` broke its ties by start: one sort value fewer.
    const secret = await tokenSecretOf(services.db, config.integration.tokenSecret);
    const binding = { kind: 'event', lang: 'en' as const, caller: '', filters: payload.f };
    const position = { pit: payload.p, after: payload.a.slice(0, 2), seen: 3, total: payload.t };
    const older = issueCursor(secret, binding, position, new Date());
    expectError(await api.get(`${path}&cursor=${older}`), 410, 'cursor-expired');
  });

  it('exports every match as NDJSON, equal to the walk, with a key of any role only', async () => {
    const path = `/events?search=${word}&per_page=5&${WINDOW}`;
    const { ids: walked, pages } = await walk(path, { key: true });
    const exported = await exportOf(`/events/export?search=${word}&${WINDOW}`);
    expect(exported.status).to.equal(200);
    expect(exported.type).to.match(/^application\/x-ndjson/);
    expect(exported.records.map((record) => record.id)).to.deep.equal(walked);
    expect(exported.records[0]).to.deep.equal(pages[0]!.body.events[0]);
    expect(exported.since).to.be.a('string');
    const anonymous = await api.get(`/events/export?search=${word}`);
    expectError(anonymous, 401, 'rest_unauthorized');
    // A contributor's export shows what its list shows: published events, not the administrator's draft.
    const draft = (
      await writeIndexed('POST', '/events', {
        title: `${word} draft`,
        start_date: daysFromNow(12),
        end_date: daysFromNow(12, '23:00:00'),
        status: 'draft',
      })
    ).body.id;
    const { contributor } = await callers();
    const theirs = await exportOf(`/events/export?search=${word}&${WINDOW}`, contributor.key!);
    const listed = (await walk(`/events?search=${word}&per_page=50&${WINDOW}`, as(contributor))).ids;
    expect(theirs.records.map((record) => record.id))
      .to.deep.equal(listed)
      .and.not.include(draft);
    expect((await exportOf(`/events/export?search=${word}&${WINDOW}`)).records.map((r) => r.id)).to.include(draft);
    // Paging does not apply to an export (ignored, as unknown parameters are); a bad filter is a 400 before any line.
    expect((await exportOf(`/events/export?search=${word}&${WINDOW}&page=2&per_page=1`)).records).to.have.length(
      exported.records.length + 1,
    );
    expectError(await api.get('/events/export?orderby=nope', { key: true }), 400, 'rest_invalid_param');
    // A known path: the method it lacks is 405 (CONTRACT part 1), not a write to an event named "export".
    expect((await api.post('/events/export', {})).status).to.equal(405);
  });

  it('walks and exports every kind', async () => {
    for (const plural of ['venues', 'organizers', 'categories', 'tags']) {
      const filters = plural === 'categories' || plural === 'tags' ? '?hide_empty=false&per_page=2' : '?per_page=2';
      const { ids: walked } = await walk(`/${plural}${filters}`, { key: true });
      const exported = await exportOf(
        `/${plural}/export${filters.replace('&per_page=2', '').replace('?per_page=2', '')}`,
      );
      expect(exported.status, plural).to.equal(200);
      expect(
        exported.records.map((record) => record.id),
        plural,
      ).to.deep.equal(walked);
    }
  });
});
