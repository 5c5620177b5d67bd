import { expect } from 'chai';
import { freePort } from '../../src/dev/managedProcess';
import { WebhookReceiver } from '../support/webhookReceiver';
import { adminCalls, FAST_WEBHOOKS, openWebhookWorld } from '../support/webhookScenario';
import { envOf, kill, spawnScript, type Child } from './support/childProcess';
import { sleep, until } from './support/http';
import type { PrivateWorld } from './support/privateWorld';

const EVENTS = 20;
/** Shorter attempts and fewer of them at once than the delivery tests, for the slow receiver. */
const FAST = { ...FAST_WEBHOOKS, WEBHOOK_RETRY_MAX_MS: '500', WEBHOOK_TIMEOUT_MS: '300', WEBHOOK_CONCURRENCY: '2' };
/**
 * Where each attempt's answer is checked: a receiver on loopback answers at once, but a busy
 * machine may hold the answer past a short timeout, and the attempt would be made again.
 */
const PATIENT = { ...FAST, WEBHOOK_TIMEOUT_MS: '2000' };

describe('reliability: webhooks through receiver outages, a killed worker and a slow receiver', function () {
  this.timeout(180_000);
  let world: PrivateWorld;
  const children: Child[] = [];
  const receivers: WebhookReceiver[] = [];
  const admin = adminCalls(() => world);
  const open = (inProcessWorker: boolean, env = FAST) => openWebhookWorld(env, inProcessWorker);
  const writeEvents = (title: string) => admin.newEvents(title, EVENTS);

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
    world = await open(true, PATIENT);
    const receiver = await downReceiver();
    const id = await admin.subscribe(receiver, { search: 'outage' });
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
    // Attempts are recorded once they ended (with others'): wait for the last ones.
    const recorded = async () =>
      (await admin.get(`/subscriptions/${id}/deliveries?per_page=100`)).body.deliveries as {
        status: string;
        log: { error: string | null; status_code: number | null }[];
      }[];
    await until(
      async () => (await recorded()).every((d) => d.status === 'delivered'),
      10_000,
      'every attempt recorded',
    );
    for (const delivery of await recorded()) {
      expect(delivery.status).to.equal('delivered');
      expect(delivery.log[0]!.error).to.match(/ECONNREFUSED/);
      expect(delivery.log.at(-1)!.status_code).to.equal(200);
    }
  });

  // The worker alone (`npm run worker`), and the API with its worker in-process (the default).
  for (const [what, script] of [
    ['the worker', 'src/app/worker.ts'],
    ['the API', 'src/app/main.ts'],
  ] as const) {
    it(`${what} killed (SIGKILL) with messages pending, then restarted: nothing is lost`, async () => {
      world = await open(false);
      const startWorker = async () => {
        const port = String(await freePort());
        const child = spawnScript(
          script,
          envOf(world.config, { ...FAST, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: port }),
        );
        children.push(child);
        return child;
      };
      const receiver = await downReceiver();
      const id = await admin.subscribe(receiver, { search: 'crash' });
      const first = await startWorker();
      const ids = await writeEvents('Crash recital');
      await until(
        async () => (await pendingAttempted(id)) >= EVENTS / 2,
        60_000,
        () => `attempts by the first ${what}\n${first.output()}`,
      );
      kill(first);
      expect((await first.exited).signal).to.equal('SIGKILL');
      await receiver.start();
      await sleep(500);
      expect(receiver.received, 'nobody delivers while no worker runs').to.have.length(0);
      const second = await startWorker();
      await until(
        async () => receiver.accepted.length >= EVENTS,
        90_000,
        () => `${receiver.accepted.length} of ${EVENTS}\n${second.output()}`,
      );
      expectEveryEventOnce(receiver, ids);
      await until(
        async () => (await world.services.webhooks.deliveries.docs.countDocuments({ subscription: id })) === 0,
        10_000,
        'every attempt recorded, the queue empty',
      );
    });
  }

  it('a slow receiver: attempts time out, connections never pile up past WEBHOOK_CONCURRENCY, all arrive once it is fast', async () => {
    world = await open(true);
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    receiver.delayMs = 2_000;
    const id = await admin.subscribe(receiver, { search: 'molasses' });
    const ids = await writeEvents('Molasses quartet');
    await until(async () => (await pendingAttempted(id)) >= 6, 60_000, 'timed-out attempts');
    await sleep(1_000);
    // One connection per attempt in flight; a socket closing as the next opens may count once more.
    expect(receiver.maxOpenConnections).to.be.at.most(Number(FAST.WEBHOOK_CONCURRENCY) + 1);
    const [slow] = (await admin.get(`/subscriptions/${id}/deliveries?per_page=100`)).body.deliveries.filter(
      (d: { attempts: number }) => d.attempts > 0,
    );
    expect(slow.error).to.equal('no answer within 300 ms');
    receiver.delayMs = 0;
    await until(
      async () => new Set(receiver.accepted.map((r) => r.json.event_id)).size >= EVENTS,
      60_000,
      'all delivered',
    );
    expectEveryEventOnce(receiver, ids);
    // Attempts that timed out while the receiver was slow may still be answered and closed.
    await until(async () => receiver.openConnections === 0, 10_000, 'every connection closed');
  });
});
