import { expect } from 'chai';
import { MongoClient, type Db } from 'mongodb';
import { DeliveryQueue, type NewDelivery } from '../../src/storage/webhooks/deliveries';
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

  after(async () => {
    await queue.docs.deleteMany({}); // the server here drops neither databases nor collections
    await client.close();
  });

  beforeEach(() => queue.docs.deleteMany({}));

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
});
