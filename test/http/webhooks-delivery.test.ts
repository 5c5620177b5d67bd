import { expect } from 'chai';
import { DateTime } from 'luxon';
import { call, sleep, until } from '../reliability/support/http';
import type { PrivateWorld } from '../reliability/support/privateWorld';
import { acceptedMessages, acceptedSoFar, adminCalls, openWebhookWorld } from '../support/webhookScenario';
import { WebhookReceiver } from '../support/webhookReceiver';
import { matchSubscriptions } from '../../src/services/webhooks/subscriptionFilters';
import { aliasName } from '../../src/search/indexNames';

const ROOT = '/calendar/events/v1';

describe('webhooks: matching and delivery to a receiver on loopback', function () {
  this.timeout(60_000);
  let world: PrivateWorld;
  let receiver: WebhookReceiver;
  const { get, post, patch, delete: del, newEvent, subscribe: subscribeTo } = adminCalls(() => world);
  const subscribe = (filters: unknown) => subscribeTo(receiver, filters);
  const messages = (subscription: number, event: number, count: number) =>
    acceptedMessages(receiver, subscription, event, count);

  before(async () => {
    world = await openWebhookWorld();
    receiver = await new WebhookReceiver().start();
  });

  after(async () => {
    await world?.close();
    await receiver?.stop();
  });

  beforeEach(() => {
    receiver.received.length = 0;
    receiver.status = () => 204;
    receiver.delayMs = 0;
  });

  it('sends match.added, match.updated and match.removed as the record enters, changes in and leaves the search; signed', async () => {
    const subscription = await subscribe({ search: 'saxophone' });
    const id = await newEvent('Saxophone night');
    await messages(subscription, id, 1);
    expect((await patch(`/events/${id}`, { title: 'Saxophone night, second set' })).status).to.equal(200);
    await messages(subscription, id, 2);
    expect((await patch(`/events/${id}`, { title: 'Accordion night' })).status).to.equal(200);
    const received = await messages(subscription, id, 3);
    expect(received.map((r) => r.json.type)).to.deep.equal(['match.added', 'match.updated', 'match.removed']);
    for (const r of received) {
      expect(r.signatureValid, 'signature checked by the standardwebhooks package').to.equal(true);
      expect(r.json.id).to.equal(r.headers['webhook-id']);
      expect(Object.keys(r.json)).to.deep.equal(['id', 'type', 'subscription_id', 'event_id', 'occurred_at', 'record']);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).to.be.below(60);
    }
    // The record as an anonymous list shows it: the same object the list answers.
    const list = await call(world.baseUrl, 'GET', `${ROOT}/events?search=saxophone&start_date=2030-01-01`);
    expect(list.body.events).to.have.length(0);
    expect(received[1]!.json.record).to.include({ id, title: 'Saxophone night, second set' });
    expect(received[2]!.json.record).to.equal(null);
    // No change in what the record shows while it matches: no message.
    const log = await get(`/subscriptions/${subscription}/deliveries`);
    expect(log).to.have.nested.property('body.total', 3);
    // Walked a message a page, newest first, as the numbered page lists them.
    const walked: unknown[] = [];
    for (let cursor = ''; ;) {
      const page = await get(
        `/subscriptions/${subscription}/deliveries?per_page=1&cursor=${encodeURIComponent(cursor)}`,
      );
      walked.push(...page.body.deliveries);
      if (page.body.next_cursor === null) break;
      cursor = page.body.next_cursor;
    }
    expect(walked).to.deep.equal(log.body.deliveries);
  });

  it('evaluates filters as an anonymous list does: drafts, trash and delete leave; protected events are blanked', async () => {
    const category = (await post('/categories', { name: 'Webhook brass' })).body.id as number;
    const subscription = await subscribe({ categories: [category] });
    const draft = await newEvent('Brass draft', { categories: [category], status: 'draft' });
    const trashed = await newEvent('Brass to trash', { categories: [category] });
    const deleted = await newEvent('Brass to delete', { categories: [category] });
    const locked = await newEvent('Brass behind a password', { categories: [category], password: 'sesame' });
    await messages(subscription, trashed, 1);
    await messages(subscription, deleted, 1);
    const [protectedAdded] = await messages(subscription, locked, 1);
    const anonymous = await call(world.baseUrl, 'GET', `${ROOT}/events?categories=${category}&include=${locked}`);
    // Term counts are those of the moment each was made; the rest is the same object.
    const withoutCounts = (record: { categories: { count?: number }[] }) => ({
      ...record,
      categories: record.categories.map(({ count: _count, ...term }) => term),
    });
    expect(withoutCounts(protectedAdded!.json.record)).to.deep.equal(withoutCounts(anonymous.body.events[0]));
    expect(protectedAdded!.json.record).to.include({ description: '', excerpt: '', website: '' });
    expect((await del(`/events/${trashed}`)).status).to.equal(200);
    expect((await del(`/events/${deleted}?force=true`)).status).to.equal(200);
    expect((await messages(subscription, trashed, 2)).map((r) => r.json.type)).to.deep.equal([
      'match.added',
      'match.removed',
    ]);
    expect((await messages(subscription, deleted, 2)).map((r) => r.json.type)).to.deep.equal([
      'match.added',
      'match.removed',
    ]);
    // Publishing the draft makes it match.
    expect((await patch(`/events/${draft}`, { status: 'publish' })).status).to.equal(200);
    expect((await messages(subscription, draft, 1))[0]!.json.type).to.equal('match.added');
  });

  it('without a date, no date limit; with one, the window of a list made at the change (geo too)', async () => {
    const dateless = await subscribe({ search: 'harpsichord' });
    const upcoming = await subscribe({ search: 'harpsichord', start_date: 'now' });
    const near = await subscribe({
      search: 'harpsichord',
      geoloc_lat: 45.76,
      geoloc_lng: 4.84,
      geoloc_radius: 10,
      geoloc_unit: 'km',
    });
    const venueInLyon = (await post('/venues', { venue: 'Salle Rameau', geo_lat: 45.77, geo_lng: 4.83 })).body.id;
    const past = await newEvent('Harpsichord of 2001', {
      start_date: '2001-03-01 20:00:00',
      end_date: '2001-03-01 22:00:00',
    });
    // Within the default end of a list with start_date=now (now + 2 years).
    const soon = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const future = await newEvent('Harpsichord in Lyon', {
      venue: venueInLyon,
      start_date: `${soon} 20:00:00`,
      end_date: `${soon} 22:00:00`,
    });
    await messages(dateless, past, 1);
    await messages(dateless, future, 1);
    await messages(upcoming, future, 1);
    const [inLyon] = await messages(near, future, 1);
    expect(inLyon!.json.record.distance).to.be.a('number').below(10);
    const far = await newEvent('Harpsichord in 2030'); // past the window of start_date=now
    await messages(dateless, far, 1);
    await sleep(500);
    const types = (subscription: number, event: number) => acceptedSoFar(receiver, subscription, event);
    expect(types(upcoming, past), 'the past event is outside "from now"').to.have.length(0);
    expect(types(near, past), 'the past event has no venue in Lyon').to.have.length(0);
    expect(types(upcoming, far), 'beyond now + 2 years, as a list with start_date=now').to.have.length(0);
  });

  it('retries a 5xx with the same Webhook-Id, the delivery log saying what happened', async () => {
    const subscription = await subscribe({ search: 'theremin' });
    let failures = 2;
    receiver.status = () => (failures-- > 0 ? 503 : 200);
    const id = await newEvent('Theremin recital');
    await messages(subscription, id, 1);
    const attempts = receiver.received.filter((r) => r.json.subscription_id === subscription);
    expect(attempts.map((r) => r.answered)).to.deep.equal([503, 503, 200]);
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).to.equal(1);
    expect(attempts.every((r) => r.signatureValid)).to.equal(true);
    // The attempt is recorded once it ended (with others'): wait for it.
    const recorded = async () => (await get(`/subscriptions/${subscription}/deliveries`)).body.deliveries;
    await until(async () => (await recorded())[0]?.status === 'delivered', 10_000, 'the last attempt recorded');
    const [delivery] = await recorded();
    expect(delivery).to.include({
      type: 'match.added',
      status: 'delivered',
      attempts: 3,
      status_code: 200,
      error: null,
      next_retry: null,
    });
    expect(delivery.log.map((a: { status_code: number }) => a.status_code)).to.deep.equal([503, 503, 200]);
    expect(delivery.record).to.include({ id });
    expect((await get(`/subscriptions/${subscription}`)).body.failing_since).to.equal(null);
  });

  it('a receiver slower than WEBHOOK_TIMEOUT_MS is a failed attempt, retried', async () => {
    const subscription = await subscribe({ search: 'glockenspiel' });
    receiver.delayMs = 1_500;
    const id = await newEvent('Glockenspiel matinee');
    const path = `/subscriptions/${subscription}/deliveries`;
    await until(async () => (await get(path)).body.deliveries[0]?.attempts >= 2, 20_000, 'two attempts');
    const [delivery] = (await get(path)).body.deliveries;
    expect(delivery.status).to.equal('pending');
    expect(delivery.error).to.equal('no answer within 500 ms');
    expect(delivery.log[0].duration_ms).to.be.within(450, 1_400);
    receiver.delayMs = 0;
    await messages(subscription, id, 1);
  });

  it('does not follow redirects', async () => {
    const subscription = await subscribe({ search: 'ocarina' });
    receiver.status = () => 307;
    await newEvent('Ocarina duo');
    const path = `/subscriptions/${subscription}/deliveries`;
    await until(async () => (await get(path)).body.deliveries[0]?.attempts >= 1, 20_000, 'an attempt');
    const [delivery] = (await get(path)).body.deliveries;
    expect(delivery).to.include({ status_code: 307, error: 'HTTP 307 (redirects are not followed)' });
  });

  it('a series matches as one record, by its occurrences: cancelling the only matching occurrence removes it', async () => {
    // Within RECURRENCE_HORIZON (two years), where occurrences are indexed.
    const first = DateTime.now().plus({ months: 3 }).startOf('day');
    const day = (weeks: number) => first.plus({ weeks }).toISODate()!;
    const subscription = await subscribe({
      search: 'clavichord',
      start_date: first.plus({ weeks: 2, days: -1 }).toISODate(),
      end_date: first.plus({ weeks: 2, days: 1 }).toISODate(),
    });
    const id = await newEvent('Clavichord mornings', {
      start_date: `${day(0)} 10:00:00`,
      end_date: `${day(0)} 11:00:00`,
      timezone: 'Europe/Paris',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    });
    const [added] = await messages(subscription, id, 1);
    expect(added!.json.type).to.equal('match.added');
    expect(added!.json.record).to.deep.include({ id, start_date: `${day(2)} 10:00:00` });
    expect(added!.json.record.occurrence).to.include({ series_id: id, index: 3 });
    const rid = added!.json.record.occurrence.recurrence_id;
    const cancelled = await del(`/events/${id}/occurrences/${rid}`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const received = await messages(subscription, id, 2);
    expect(received.map((r) => r.json.type)).to.deep.equal(['match.added', 'match.removed']);
  });

  it('a subscription whose saved filters the search refuses matches nothing, and holds up no other', async () => {
    // Filters saved before the check they now fail (an ID past the index's integers).
    const refused = await subscribe({ search: 'lute' });
    await world.services.webhooks.subscriptions.docs.updateOne(
      { _id: refused },
      { $set: { filters: { search: 'lute', include: [2147483648] } } },
    );
    const subscription = await subscribe({ search: 'lute' });
    const id = await newEvent('Lute recital');
    const [added] = await messages(subscription, id, 1);
    expect(added!.json.type).to.equal('match.added');
    expect(acceptedSoFar(receiver, refused, id)).to.deep.equal([]);
  });

  it('a series whose first occurrence left the index window (the daily roll) is the same match: no match.updated', async () => {
    const subscription = await subscribe({ search: 'zither' });
    const start = DateTime.utc().minus({ days: 3 }).set({ hour: 18, minute: 0, second: 0, millisecond: 0 });
    const wall = (date: DateTime) => date.toFormat('yyyy-MM-dd HH:mm:ss');
    const id = await newEvent('Zither evenings', {
      start_date: wall(start),
      end_date: wall(start.plus({ hours: 2 })),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=8'],
    });
    const [added] = await messages(subscription, id, 1);
    // Undated, the subscription matches the series at its first occurrence in the index.
    expect(added!.json.record.occurrence).to.include({ index: 1 });
    const { services } = world;
    const doc = (await services.webhooks.subscriptions.byIds([subscription])).get(subscription)!;
    const match = async () => (await matchSubscriptions(services, [doc], [id])).get(subscription)!.get(id)!;
    const before = await match();
    // The roll drops the occurrences that ended more than a year ago: here, as if the first had.
    const index = aliasName(services.config, 'event', 'en');
    await services.search.delete({ index, id: `${id}@${added!.json.record.occurrence.recurrence_id}`, refresh: true });
    const after = await match();
    expect(after.record.occurrence, 'now found at its second occurrence').to.include({ index: 2 });
    expect(after.hash, 'the same series').to.equal(before.hash);
  });
});

describe('webhooks: a subscription failing for WEBHOOK_RETRY_HOURS is disabled, and metrics', function () {
  this.timeout(60_000);
  let world: PrivateWorld;
  let receiver: WebhookReceiver;
  const { get, patch, newEvent, subscribe } = adminCalls(() => world);

  before(async () => {
    // 3.6 s of failures; an attempt may be held longer than that.
    world = await openWebhookWorld({ WEBHOOK_RETRY_HOURS: '0.001', WEBHOOK_TIMEOUT_MS: '6000' });
    receiver = await new WebhookReceiver().start();
  });

  after(async () => {
    await world?.close();
    await receiver?.stop();
  });

  it('gives up, disables the subscription and says why; counts on /metrics', async () => {
    receiver.status = () => 500;
    const subscription = await subscribe(receiver, { search: 'kazoo' });
    const event = await newEvent('Kazoo choir', { start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' });
    const path = `/subscriptions/${subscription}`;
    await until(async () => (await get(path)).body.status === 'disabled', 30_000, 'disabled');
    const read = await get(path);
    expect(read.body.disabled_reason).to.match(/^deliveries failed for 0.001 h; last: HTTP 500$/);
    expect(read.body.failing_since).to.be.a('string');
    const recorded = async () => (await get(`${path}/deliveries`)).body.deliveries;
    await until(async () => (await recorded())[0]?.status === 'failed', 10_000, 'the last attempt recorded');
    const [delivery] = await recorded();
    expect(delivery).to.include({ status: 'failed', status_code: 500, next_retry: null });
    expect(delivery.attempts).to.be.above(2);
    const metrics = (await call(world.baseUrl, 'GET', '/metrics')).body as string;
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect(value('calendar_webhook_deliveries_failed_total')).to.equal(1);
    expect(value('calendar_webhook_deliveries_retried_total')).to.equal(delivery.attempts - 1);
    expect(value('calendar_webhook_deliveries_sent_total')).to.equal(0);
    expect(value('calendar_webhook_queue_depth')).to.equal(0);
    expect(value('calendar_webhook_queue_oldest_seconds')).to.equal(0);

    // Enabled again, it delivers what comes next.
    receiver.status = () => 200;
    expect((await patch(path, { status: 'active' })).body).to.include({ status: 'active', disabled_reason: null });
    receiver.secret = null;
    await patch(`/events/${event}`, { title: 'Kazoo choir, encore' });
    await until(async () => receiver.accepted.length === 1, 20_000, 'the update delivered');
    expect(receiver.accepted[0]!.json.type).to.equal('match.updated');
    const sent = async () =>
      Number(
        /^calendar_webhook_deliveries_sent_total (\S+)$/m.exec(
          (await call(world.baseUrl, 'GET', '/metrics')).body,
        )?.[1],
      );
    await until(async () => (await sent()) === 1, 5_000, 'the delivery counted');
  });

  it('enabled again, a message that waited while it was disabled has a retry window of its own', async () => {
    const { deliveries } = world.services.webhooks;
    receiver.status = () => 500;
    const subscription = await subscribe(receiver, { search: 'ocarina' });
    const path = `/subscriptions/${subscription}`;
    await newEvent('Ocarina trio', { start_date: '2030-01-02 10:00:00', end_date: '2030-01-02 11:00:00' });
    await sleep(2_000);
    // Its window ends two seconds after the first message's, which disables the subscription.
    const later = await newEvent('Ocarina duo', { start_date: '2030-01-03 10:00:00', end_date: '2030-01-03 11:00:00' });
    await until(async () => (await get(path)).body.status === 'disabled', 30_000, 'disabled');
    const waiting = await deliveries.docs.findOne({ subscription, event: later });
    expect(waiting, 'the later message waits, tried already').to.include({ status: 'pending' });
    expect(waiting!.attempts).to.be.above(0);
    // Its window passes while the subscription is disabled.
    await sleep(4_000);
    // The receiver is mended, but its first answer is still an error: retried, not given up.
    let errors = 1;
    receiver.status = () => (errors-- > 0 ? 503 : 200);
    expect((await patch(path, { status: 'active' })).body.status).to.equal('active');
    const [added] = await acceptedMessages(receiver, subscription, later, 1);
    expect(added!.json.type).to.equal('match.added');
    expect((await get(path)).body).to.include({ status: 'active', disabled_reason: null });
  });

  it('enabled again while an attempt is under way, that message has a retry window of its own too', async () => {
    receiver.status = () => 500;
    const subscription = await subscribe(receiver, { search: 'theremin' });
    const path = `/subscriptions/${subscription}`;
    const event = await newEvent('Theremin recital', {
      start_date: '2030-01-04 10:00:00',
      end_date: '2030-01-04 11:00:00',
    });
    await until(async () => receiver.received.some((r) => r.json?.event_id === event), 10_000, 'the first attempt');
    // The next attempt is held past the end of the message's window (3.6 s from its first attempt).
    receiver.delayMs = 4_500;
    let held = 0;
    receiver.status = () => (held++ === 0 ? 503 : 200);
    await sleep(2_000);
    // `active` sent to an active subscription is not an enabling: its windows stay.
    expect((await patch(path, { status: 'active' })).body.status).to.equal('active');
    expect((await world.services.webhooks.subscriptions.get(subscription))?.enabledAt ?? null).to.equal(null);
    expect((await patch(path, { status: 'disabled' })).body.status).to.equal('disabled');
    expect((await patch(path, { status: 'active' })).body.status).to.equal('active');
    const leased = await world.services.webhooks.deliveries.docs.findOne({ subscription, event });
    expect(leased?.owner, 'the message is under way as the subscription is enabled').to.be.a('string');
    receiver.delayMs = 0;
    // The held attempt fails after the first window, within the one its enabling began: retried, then sent.
    await until(
      async () => receiver.accepted.some((r) => r.json.subscription_id === subscription && r.json.event_id === event),
      20_000,
      'sent after the held failure',
    );
    expect((await get(path)).body).to.include({ status: 'active', disabled_reason: null });
  });
});
