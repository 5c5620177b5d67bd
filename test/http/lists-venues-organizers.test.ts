import { expect } from 'chai';
import { api } from '../support/api';
import { create, daysFromNow, listIds, searchReady, settle, unique, writeIndexed } from '../support/lists';

describe('lists: GET /venues and GET /organizers', () => {
  const word = unique('plaza');
  const ids: Record<string, number> = {};

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    ids.alpha = (await create('/venues', { venue: `Alpha ${word} Hall`, city: 'Marseille', zip: '13001' })).id;
    ids.beta = (await create('/venues', { venue: `beta ${word} Club` })).id;
    ids.gamma = (await create('/venues', { venue: `Gamma ${word} Arena`, description: 'An old velodrome' })).id;
    ids.delta = (await create('/venues', { venue: `Delta ${word}`, status: 'draft' })).id;
    ids.one = (await create('/organizers', { organizer: `${word} One`, email: 'one@example.org' })).id;
    ids.two = (await create('/organizers', { organizer: `${word} Two` })).id;
    ids.upcoming = (
      await create('/events', {
        title: 'Upcoming show',
        start_date: daysFromNow(5),
        end_date: daysFromNow(5, '23:00:00'),
        venue: ids.alpha,
        organizer: [ids.one],
      })
    ).id;
    ids.past = (
      await create('/events', {
        title: 'Past show',
        start_date: daysFromNow(-5),
        end_date: daysFromNow(-5, '23:00:00'),
        venue: ids.gamma,
      })
    ).id;
    ids.draft = (
      await create('/events', {
        title: 'Draft show',
        start_date: daysFromNow(6),
        end_date: daysFromNow(6, '23:00:00'),
        venue: ids.beta,
        organizer: [ids.two],
        status: 'draft',
      })
    ).id;
    await settle();
  });

  it('lists published venues ordered by name, case-insensitively, with the envelope', async () => {
    const res = await api.get(`/venues?search=${word}`);
    expect(res.status).to.equal(200);
    expect(res.body.venues.map((v: { id: number }) => v.id)).to.deep.equal([ids.alpha, ids.beta, ids.gamma]);
    expect(res.body).to.include({ total: 3, total_pages: 1 });
    expect(res.headers.get('x-total')).to.equal('3');
    const single = (await api.get(`/venues/${ids.alpha}`)).body;
    expect(res.body.venues[0]).to.deep.equal(single);
    expect(await listIds(`/venues?search=${word}`, { key: true })).to.deep.equal([
      ids.alpha,
      ids.beta,
      ids.delta,
      ids.gamma,
    ]);
  });

  it('searches names, descriptions and address fields, typo-tolerant', async () => {
    expect(await listIds(`/venues?search=${word}%20marseille`)).to.deep.equal([ids.alpha]);
    expect(await listIds(`/venues?search=${word}%20velodrom`)).to.deep.equal([ids.gamma]);
    expect(await listIds(`/venues?search=${word}%20arnea`)).to.deep.equal([ids.gamma]);
  });

  it('filters by has_events, only_with_upcoming and event', async () => {
    expect(await listIds(`/venues?search=${word}&has_events=true`)).to.deep.equal([ids.alpha, ids.gamma]);
    expect(await listIds(`/venues?search=${word}&has_events=false`)).to.deep.equal([ids.beta]);
    expect(await listIds(`/venues?search=${word}&only_with_upcoming=true`)).to.deep.equal([ids.alpha]);
    expect(await listIds(`/venues?event=${ids.past}`)).to.deep.equal([ids.gamma]);
    const notEvent = await api.get(`/venues?event=${ids.alpha}`);
    expect(notEvent.status).to.equal(400);
    expect(notEvent.body.data.params).to.have.property('event');
    const draft = await api.get('/venues?status=draft');
    expect(draft.status).to.equal(400);
  });

  it('takes an empty status (`status=`) as the default in event, venue and organizer lists', async () => {
    for (const kind of ['venues', 'organizers', 'events']) {
      const all = await api.get(`/${kind}?per_page=1`);
      const empty = await api.get(`/${kind}?per_page=1&status=`);
      expect([empty.status, empty.body.total], kind).to.deep.equal([200, all.body.total]);
      expect(all.body.total, kind).to.be.above(0);
    }
  });

  it('filters organizers the same way', async () => {
    expect(await listIds(`/organizers?search=${word}`)).to.deep.equal([ids.one, ids.two]);
    expect(await listIds(`/organizers?search=${word}&has_events=1`)).to.deep.equal([ids.one]);
    expect(await listIds(`/organizers?search=${word}&has_events=0`)).to.deep.equal([ids.two]);
    expect(await listIds(`/organizers?search=${word}&only_with_upcoming=yes`)).to.deep.equal([ids.one]);
    // A draft event is a filter for those who may read it only (anonymous callers: 400, as for no event).
    expect(await listIds(`/organizers?event=${ids.draft}`, { key: true })).to.deep.equal([ids.two]);
    const hidden = await api.get(`/organizers?event=${ids.draft}`);
    expect([hidden.status, hidden.body.data.params]).to.deep.equal([400, { event: `${ids.draft} is not an event` }]);
    expect(await listIds(`/organizers?search=example.org`)).to.include(ids.one);
    const page = await api.get(`/organizers?search=${word}&per_page=1&page=3`);
    expect(page.status).to.equal(404);
    expect(page.body.code).to.equal('organizer-archive-page-not-found');
  });

  it('follows event changes: moved to the past, then trashed', async () => {
    await writeIndexed('POST', `/events/${ids.upcoming}`, {
      start_date: daysFromNow(-3),
      end_date: daysFromNow(-3, '23:00:00'),
    });
    expect(await listIds(`/venues?search=${word}&only_with_upcoming=true`)).to.deep.equal([]);
    expect(await listIds(`/venues?search=${word}&has_events=true`)).to.deep.equal([ids.alpha, ids.gamma]);
    await writeIndexed('DELETE', `/events/${ids.upcoming}`);
    expect(await listIds(`/venues?search=${word}&has_events=true`)).to.deep.equal([ids.gamma]);
    expect(await listIds(`/organizers?search=${word}&has_events=true`)).to.deep.equal([]);
  });
});
