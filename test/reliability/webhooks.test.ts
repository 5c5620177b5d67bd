import { expect } from 'chai';
import { testWorld } from '../support/harness';
import { WebhookReceiver } from '../support/webhookReceiver';
import { envOf, kill, spawnScript, type Child } from './support/childProcess';
import { call, sleep, until } from './support/http';
import { openPrivateWorld, type PrivateWorld } from './support/privateWorld';
import { pool } from './support/writes';

const ROOT = '/calendar/events/v1';
const EVENTS = 20;
/** Backoff and timeouts in milliseconds, so that each scenario runs in seconds. */
const FAST = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_MS: '500',
  WEBHOOK_TIMEOUT_MS: '300',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_CONCURRENCY: '2',
  SYNC_POLL_MS: '50',
};

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('reliability: webhooks through receiver outages, a killed worker and a slow receiver', function () {
  this.timeout(180_000);
  let world: PrivateWorld;
  const children: Child[] = [];
  const receivers: WebhookReceiver[] = [];

  async function open(inProcessWorker: boolean): Promise<PrivateWorld> {
    const { config } = testWorld();
    return openPrivateWorld({
      mongoUrl: config.mongo.url!,
      elasticsearchUrl: config.elasticsearch.url!,
      worker: inProcessWorker,
      env: FAST,
    });
  }

  afterEach(async () => {
    children.forEach((child) => kill(child));
    children.length = 0;
    await Promise.all(receivers.map((r) => r.stop()));
    receivers.length = 0;
    await world?.close();
  });

  /** A receiver's port, free again: attempts to it are refused until the receiver starts there. */
  async function downReceiver(): Promise<WebhookReceiver> {
    const probe = await new WebhookReceiver().start();
    await probe.stop();
    const receiver = new WebhookReceiver(probe.port);
    receivers.push(receiver);
    return receiver;
  }

  async function subscribe(url: string, search: string): Promise<{ id: number; secret: string }> {
    const res = await call(
      world.baseUrl,
      'POST',
      `${ROOT}/subscriptions`,
      { url, filters: { search } },
      { key: world.adminKey },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }

  async function writeEvents(title: string): Promise<number[]> {
    return pool(range(EVENTS), 4, async (n) => {
      const res = await call(
        world.baseUrl,
        'POST',
        `${ROOT}/events`,
        {
          title: `${title} ${n}`,
          status: 'publish',
          start_date: '2030-05-01 20:00:00',
          end_date: '2030-05-01 22:00:00',
        },
        { key: world.adminKey },
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.id as number;
    });
  }

  const pendingAttempted = async (subscription: number) =>
    world.services.webhooks.deliveries.docs.countDocuments({ subscription, status: 'pending', attempts: { $gte: 1 } });

  /** Every event's match.added arrived, signed (checked with the `standardwebhooks` package). */
  function expectEveryEventOnce(receiver: WebhookReceiver, ids: number[]): void {
    const added = receiver.accepted.filter((r) => r.json.type === 'match.added');
    expect([...new Set(added.map((r) => r.json.event_id))].sort((a, b) => a - b)).to.deep.equal(
      [...ids].sort((a, b) => a - b),
    );
    expect(added.every((r) => r.signatureValid)).to.equal(true);
  }

  it('receiver down, then failing, then up: every message arrives, with the same Webhook-Id on each retry', async () => {
    world = await open(true);
    const receiver = await downReceiver();
    const { id, secret } = await subscribe(receiver.url, 'outage');
    receiver.secret = secret;
    const ids = await writeEvents('Outage concert');
    await until(
      async () => (await pendingAttempted(id)) === EVENTS,
      30_000,
      'every message tried against the closed port',
    );
    // Up, but failing every first answer to a message: the retry carries the same ID.
    const seen = new Set<string>();
    receiver.status = (request) => {
      const messageId = String(request.headers['webhook-id']);
      if (seen.has(messageId)) return 200;
      seen.add(messageId);
      return 503;
    };
    await receiver.start();
    await until(
      async () => receiver.accepted.length >= EVENTS,
      60_000,
      () => `${receiver.accepted.length} of ${EVENTS} delivered`,
    );
    expectEveryEventOnce(receiver, ids);
    for (const accepted of receiver.accepted) {
      const attempts = receiver.received.filter((r) => r.headers['webhook-id'] === accepted.headers['webhook-id']);
      expect(attempts.map((r) => r.answered)).to.deep.equal([503, 200]);
      expect(attempts.every((r) => r.signatureValid)).to.equal(true);
    }
    const log = await call(world.baseUrl, 'GET', `${ROOT}/subscriptions/${id}/deliveries?per_page=100`, undefined, {
      key: world.adminKey,
    });
    for (const delivery of log.body.deliveries) {
      expect(delivery.status).to.equal('delivered');
      expect(delivery.log[0].error).to.match(/ECONNREFUSED/);
      expect(delivery.log.at(-1).status_code).to.equal(200);
    }
  });

  it('the worker killed (SIGKILL) with messages pending, then restarted: nothing is lost', async () => {
    world = await open(false);
    const env = envOf(world.config, { ...FAST, LOG_LEVEL: 'silent' });
    const startWorker = () => {
      const child = spawnScript('src/app/worker.ts', env);
      children.push(child);
      return child;
    };
    const receiver = await downReceiver();
    const { id, secret } = await subscribe(receiver.url, 'crash');
    receiver.secret = secret;
    const first = startWorker();
    const ids = await writeEvents('Crash recital');
    await until(
      async () => (await pendingAttempted(id)) >= EVENTS / 2,
      60_000,
      () => `attempts by the first worker\n${first.output()}`,
    );
    kill(first);
    expect((await first.exited).signal).to.equal('SIGKILL');
    await receiver.start();
    await sleep(500);
    expect(receiver.received, 'nobody delivers while no worker runs').to.have.length(0);
    const second = startWorker();
    await until(
      async () => receiver.accepted.length >= EVENTS,
      90_000,
      () => `${receiver.accepted.length} of ${EVENTS}\n${second.output()}`,
    );
    expectEveryEventOnce(receiver, ids);
    expect(
      await world.services.webhooks.deliveries.docs.countDocuments({ subscription: id, status: { $ne: 'delivered' } }),
    ).to.equal(0);
  });

  it('a slow receiver: attempts time out, connections never pile up past WEBHOOK_CONCURRENCY, all arrive once it is fast', async () => {
    world = await open(true);
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    receiver.delayMs = 2_000;
    const { id, secret } = await subscribe(receiver.url, 'molasses');
    receiver.secret = secret;
    const ids = await writeEvents('Molasses quartet');
    await until(async () => (await pendingAttempted(id)) >= 6, 60_000, 'timed-out attempts');
    await sleep(1_000);
    // One connection per attempt in flight; a socket closing as the next opens may count once more.
    expect(receiver.maxOpenConnections).to.be.at.most(Number(FAST.WEBHOOK_CONCURRENCY) + 1);
    const [slow] = (
      await call(world.baseUrl, 'GET', `${ROOT}/subscriptions/${id}/deliveries?per_page=100`, undefined, {
        key: world.adminKey,
      })
    ).body.deliveries.filter((d: { attempts: number }) => d.attempts > 0);
    expect(slow.error).to.equal('no answer within 300 ms');
    receiver.delayMs = 0;
    await until(
      async () => new Set(receiver.accepted.map((r) => r.json.event_id)).size >= EVENTS,
      60_000,
      'all delivered',
    );
    expectEveryEventOnce(receiver, ids);
    await sleep(300);
    expect(receiver.openConnections).to.equal(0);
  });
});
