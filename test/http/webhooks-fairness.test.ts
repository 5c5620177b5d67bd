import { expect } from 'chai';
import { until } from '../reliability/support/http';
import type { PrivateWorld } from '../reliability/support/privateWorld';
import { acceptedMessages, adminCalls, openWebhookWorld } from '../support/webhookScenario';
import { WebhookReceiver } from '../support/webhookReceiver';
import { ROUNDS_HELD } from '../../src/indexer/webhooks/sendSlots';

/** Two attempts at a time, one per receiver: a slow receiver's backlog fills its share of them. */
describe('webhooks: a slow receiver with a backlog does not hold up another receiver', function () {
  this.timeout(60_000);
  let world: PrivateWorld;
  let slow: WebhookReceiver;
  let quick: WebhookReceiver;
  const { newEvent, newEvents, subscribe } = adminCalls(() => world);

  before(async () => {
    world = await openWebhookWorld({
      WEBHOOK_CONCURRENCY: '2',
      WEBHOOK_CONCURRENCY_PER_TARGET: '1',
      WEBHOOK_TIMEOUT_MS: '5000',
    });
    slow = await new WebhookReceiver().start();
    quick = await new WebhookReceiver().start();
  });

  after(async () => {
    await world?.close();
    await slow?.stop();
    await quick?.stop();
  });

  it("the other receiver's message goes out while the slow one's backlog waits its turn", async () => {
    const { deliveries } = world.services.webhooks;
    slow.delayMs = 2_000;
    const slowSubscription = await subscribe(slow, { search: 'glockenspiel' });
    const backlog: number[] = [];
    for (const title of ['Glockenspiel', 'Glockenspiel encore', 'Glockenspiel finale'])
      backlog.push(...(await newEvents(title, 4)));
    // The slow receiver holds all it may (ROUNDS_HELD of its one slot): one attempt under way, the
    // rest leased and waiting their turn.
    await until(
      async () =>
        (await deliveries.docs.countDocuments({ subscription: slowSubscription, owner: { $ne: null } })) >= ROUNDS_HELD,
      20_000,
      'the backlog leased',
    );
    const quickSubscription = await subscribe(quick, { search: 'triangle' });
    const event = await newEvent('Triangle solo');
    const [added] = await acceptedMessages(quick, quickSubscription, event, 1);
    expect(added!.json.type).to.equal('match.added');
    expect(slow.accepted.length, 'sent before most of the backlog').to.be.below(backlog.length / 2);
  });
});
