import { expect } from 'chai';
import { MongoClient, type Db } from 'mongodb';
import { DeliveryQueue, type NewDelivery } from '../../src/storage/webhooks/deliveries';
import { MatchStore } from '../../src/storage/webhooks/matches';
import { testWorld } from '../support/harness';

/** Batched claims of the delivery queue, on a database of their own (no dispatcher takes these messages). */
describe('webhooks: claiming many messages per round trip keeps each record in order', () => {
  let client: MongoClient;
  let db: Db;
  let queue: DeliveryQueue;
  const lease = 60_000;

  before(async () => {
    client = await MongoClient.connect(testWorld().config.mongo.url!);
    db = client.db(`calendar_claims_${Date.now().toString(36)}`);
    queue = new DeliveryQueue(db);
    await queue.ensureIndexes();
  });

  const emptied = () =>
    Promise.all(
      [queue.docs, queue.finished, queue.payloads.docs, db.collection('webhook_matches')].map((c) => c.deleteMany({})),
    );

  after(async () => {
    await emptied(); // the server here drops neither databases nor collections
    await client.close();
  });

  beforeEach(emptied);

  const message = (subscription: number, event: number, seq: number, ago = 0): NewDelivery => ({
    subscription,
    event,
    seq,
    type: seq === 1 ? 'match.added' : 'match.updated',
    occurredAt: new Date(Date.now() - 10_000 + seq * 10 - ago),
    record: { id: event },
  });

  it('leases only the oldest pending message of each subscription and record, up to the limit, oldest due first', async () => {
    await queue.enqueue([
      message(1, 10, 1),
      message(1, 10, 2),
      message(1, 10, 3),
      message(1, 11, 1),
      message(2, 10, 1),
    ]);
    const claimed = await queue.claim('a', 10, lease, []);
    expect(claimed.map((d) => [d.subscription, d.event, d.seq])).to.have.deep.members([
      [1, 10, 1],
      [1, 11, 1],
      [2, 10, 1],
    ]);
    expect(claimed.every((d) => d.owner === 'a' && d.leaseUntil.getTime() > Date.now())).to.equal(true);
    // Their chains are in flight: nothing more until they are recorded.
    expect(await queue.claim('b', 10, lease, [])).to.deep.equal([]);
    const head = claimed.find((d) => d.event === 10 && d.subscription === 1)!;
    await queue.attempted(
      head,
      'a',
      { at: new Date(), statusCode: 204, error: null, durationMs: 1 },
      { status: 'delivered' },
    );
    expect((await queue.claim('b', 10, lease, [])).map((d) => [d.subscription, d.event, d.seq])).to.deep.equal([
      [1, 10, 2],
    ]);
  });

  it('a head waiting for its retry holds back the messages behind it; skipped subscriptions and refused heads stay', async () => {
    await queue.enqueue([message(1, 20, 1), message(1, 20, 2), message(3, 20, 1), message(4, 20, 1)]);
    const [head] = await queue.claim('a', 1, lease, [3, 4]);
    expect([head!.subscription, head!.seq]).to.deep.equal([1, 1]);
    const retryAt = new Date(Date.now() + 60_000);
    await queue.attempted(
      head!,
      'a',
      { at: new Date(), statusCode: 503, error: 'HTTP 503', durationMs: 1 },
      {
        status: 'pending',
        nextAttemptAt: retryAt,
      },
    );
    const refused = await queue.claim('a', 10, lease, [3], ({ subscription }) => subscription !== 4);
    expect(refused).to.deep.equal([]);
    const behind = await queue.docs.findOne({ subscription: 1, event: 20, seq: 2 });
    expect(behind!.nextAttemptAt.getTime(), 'deferred to its head').to.equal(retryAt.getTime());
    expect((await queue.claim('a', 10, lease, [])).map((d) => d.subscription)).to.have.members([3, 4]);
  });

  it('at most `limit`, and never one leased by another claim in flight (two claims take disjoint messages)', async () => {
    await queue.enqueue(Array.from({ length: 30 }, (_, n) => message(1, 100 + n, 1, n)));
    const [a, b] = await Promise.all([queue.claim('a', 20, lease, []), queue.claim('b', 20, lease, [])]);
    expect(a.length).to.be.at.most(20);
    expect(b.length).to.be.at.most(20);
    const ids = [...a, ...b].map((d) => d._id);
    expect(new Set(ids).size, 'no message leased twice').to.equal(ids.length);
    const c = await queue.claim('a', 20, lease, []);
    expect(new Set([...ids, ...c.map((d) => d._id)]).size).to.equal(30);
    expect(a.length + b.length + c.length).to.equal(30);
  });

  const delivered = (statusCode = 204) => ({ at: new Date(), statusCode, error: null, durationMs: 1 });

  it('records many attempts at once: finished ones leave the queue for the log, with their records; retried ones stay', async () => {
    await queue.enqueue([message(5, 50, 1), message(5, 51, 1), message(5, 52, 1), message(6, 50, 1)]);
    const claimed = await queue.claim('a', 10, lease, []);
    expect(claimed.map((d) => d.record)).to.have.deep.members([{ id: 50 }, { id: 51 }, { id: 52 }, { id: 50 }]);
    const retryAt = new Date(Date.now() + 60_000);
    await queue.recordAttempts(
      'a',
      claimed.map((doc) =>
        doc.event === 52
          ? { doc, attempt: { ...delivered(503), error: 'HTTP 503' }, status: 'pending', nextAttemptAt: retryAt }
          : { doc, attempt: delivered(), status: doc.event === 51 ? 'failed' : 'delivered' },
      ),
    );
    const queued = await queue.docs.find({}).toArray();
    expect(queued.map((d) => [d.event, d.status, d.attempts, d.owner])).to.deep.equal([[52, 'pending', 1, null]]);
    expect(queued[0]!.nextAttemptAt.getTime()).to.equal(retryAt.getTime());
    expect(queued[0]!, 'the queue carries no record').not.to.have.property('record');
    const logged = await queue.finished.find({}).sort({ subscription: 1, event: 1 }).toArray();
    expect(logged.map((d) => [d.subscription, d.event, d.status, d.attempts])).to.deep.equal([
      [5, 50, 'delivered', 1],
      [5, 51, 'failed', 1],
      [6, 50, 'delivered', 1],
    ]);
    expect(logged.every((d) => d.finishedAt !== null && d.log.length === 1)).to.equal(true);
    // The delivery log pages both, newest first, each with its record.
    const page = await queue.page(5, 0, 10);
    expect(page.total).to.equal(3);
    expect(page.items.map((d) => [d.event, d.status, d.record])).to.have.deep.members([
      [50, 'delivered', { id: 50 }],
      [51, 'failed', { id: 51 }],
      [52, 'pending', { id: 52 }],
    ]);
    // The same changes seen again (a batch evaluated again after a crash) queue nothing.
    await queue.enqueue([message(5, 50, 1), message(5, 51, 1), message(5, 52, 1)]);
    expect(await queue.docs.countDocuments({})).to.equal(1);
    expect(await queue.finished.countDocuments({})).to.equal(3);
  });

  it('a finished message logged before (a crash between logging it and taking it off the queue) is logged once', async () => {
    await queue.enqueue([message(7, 70, 1)]);
    const [doc] = await queue.claim('a', 10, lease, []);
    await queue.finished.insertOne({ ...doc!, record: undefined, status: 'delivered', attempts: 1 } as never);
    await queue.recordAttempts('a', [{ doc: doc!, attempt: delivered(), status: 'delivered' }]);
    expect(await queue.docs.countDocuments({})).to.equal(0);
    expect(await queue.finished.countDocuments({ _id: doc!._id })).to.equal(1);
    // Another owner's outcome (its lease ran out and the message was claimed again) leaves the queue alone.
    await queue.enqueue([message(7, 71, 1)]);
    const [again] = await queue.claim('b', 10, lease, []);
    await queue.recordAttempts('a', [{ doc: again!, attempt: delivered(), status: 'delivered' }]);
    expect(await queue.docs.countDocuments({ _id: again!._id, owner: 'b' })).to.equal(1);
  });

  it('the delivery log pages pending and finished messages together, newest first', async () => {
    await queue.enqueue([90, 91, 92, 93].map((event, n) => message(9, event, 1, n * 100)));
    const claimed = await queue.claim('a', 10, lease, []);
    await queue.recordAttempts(
      'a',
      claimed.filter((doc) => doc.event % 2).map((doc) => ({ doc, attempt: delivered(), status: 'delivered' })),
    );
    const events = async (skip: number, limit: number) => {
      const { items, total } = await queue.page(9, skip, limit);
      expect(total).to.equal(4);
      return items.map((d) => [d.event, d.status, d.record]);
    };
    expect(await events(0, 2)).to.deep.equal([
      [90, 'pending', { id: 90 }],
      [91, 'delivered', { id: 91 }],
    ]);
    expect(await events(1, 2)).to.deep.equal([
      [91, 'delivered', { id: 91 }],
      [92, 'pending', { id: 92 }],
    ]);
    expect(await events(3, 5)).to.deep.equal([[93, 'delivered', { id: 93 }]]);
    expect(await events(4, 5)).to.deep.equal([]);
  });

  it('gives back and drops leased messages many at once, by their owner only', async () => {
    await queue.enqueue([message(8, 80, 1), message(8, 81, 1), message(8, 82, 1)]);
    const claimed = await queue.claim('a', 10, lease, []);
    await queue.release(claimed.slice(0, 2), 'b');
    expect(await queue.docs.countDocuments({ owner: 'a' })).to.equal(3);
    await queue.release(claimed.slice(0, 2), 'a');
    await queue.discard(claimed.slice(2), 'a');
    expect((await queue.claim('c', 10, lease, [])).map((d) => d.event)).to.have.members([80, 81]);
  });

  it('match sets: additions, new hashes and removals applied together', async () => {
    const matches = new MatchStore(db);
    await matches.apply([
      { subscription: 1, event: 10, hash: 'a', stored: false },
      { subscription: 2, event: 10, hash: 'a', stored: false },
      { subscription: 1, event: 11, hash: 'b', stored: false },
    ]);
    await matches.apply([
      { subscription: 1, event: 10, hash: 'c', stored: true },
      { subscription: 2, event: 10, hash: 'c', stored: true },
      { subscription: 1, event: 11, hash: null, stored: true },
      { subscription: 3, event: 11, hash: 'd', stored: false },
    ]);
    const stored = await matches.of([1, 2, 3], [10, 11]);
    expect([...stored.values()].map((m) => [m.subscription, m.event, m.hash]).sort()).to.deep.equal([
      [1, 10, 'c'],
      [2, 10, 'c'],
      [3, 11, 'd'],
    ]);
  });
});
