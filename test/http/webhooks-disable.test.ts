import { expect } from 'chai';
import { sleep, until } from '../reliability/support/http';
import type { PrivateWorld } from '../reliability/support/privateWorld';
import { adminCalls, openWebhookWorld } from '../support/webhookScenario';
import { WebhookReceiver } from '../support/webhookReceiver';

/**
 * One attempt at a time, so that the dispatcher holds leased messages waiting their turn while
 * the subscription changes.
 */
describe('webhooks: a subscription disabled while its messages are leased sends nothing more', function () {
  this.timeout(60_000);
  let world: PrivateWorld;
  let receiver: WebhookReceiver;
  const { patch, newEvent, subscribe } = adminCalls(() => world);

  before(async () => {
    // The receiver's slow answers (1.5 s) are within the timeout: each attempt succeeds, once.
    world = await openWebhookWorld({
      WEBHOOK_CONCURRENCY: '1',
      WEBHOOK_CONCURRENCY_PER_TARGET: '1',
      WEBHOOK_TIMEOUT_MS: '5000',
    });
    receiver = await new WebhookReceiver().start();
  });

  after(async () => {
    await world?.close();
    await receiver?.stop();
  });

  it('the messages waiting behind the attempt under way are given back untried, and sent once it is enabled again', async () => {
    const { deliveries } = world.services.webhooks;
    receiver.delayMs = 1_500;
    const subscription = await subscribe(receiver, { search: 'harpsichord' });
    const ids: number[] = [];
    for (let n = 0; n < 4; n++) ids.push(await newEvent(`Harpsichord recital ${n}`));
    // One attempt under way (the receiver answers slowly), the others leased and waiting their turn.
    await until(
      async () =>
        receiver.openConnections === 1 && (await deliveries.docs.countDocuments({ owner: { $ne: null } })) >= 3,
      20_000,
      'one attempt under way and two messages leased behind it',
    );
    const startedBefore = receiver.received.length + receiver.openConnections;
    expect((await patch(`/subscriptions/${subscription}`, { status: 'disabled' })).status).to.equal(200);
    // The attempt under way ends and the others are given back; then a while for any wrong send.
    await until(
      async () =>
        receiver.openConnections === 0 &&
        receiver.received.length >= startedBefore &&
        (await deliveries.docs.countDocuments({ subscription, owner: { $ne: null } })) === 0,
      15_000,
      'the attempt under way ended, the messages behind it given back',
    );
    await sleep(1_000);
    expect(receiver.received.length + receiver.openConnections, 'only the attempt already under way').to.equal(
      startedBefore,
    );
    expect(receiver.accepted.length).to.equal(startedBefore);
    const waiting = await deliveries.docs.find({ subscription }).toArray();
    expect(waiting.length).to.equal(4 - startedBefore);
    expect(
      waiting.every((doc) => doc.owner === null && doc.attempts === 0),
      'given back untried',
    ).to.equal(true);

    receiver.delayMs = 0;
    expect((await patch(`/subscriptions/${subscription}`, { status: 'active' })).status).to.equal(200);
    await until(async () => receiver.accepted.length >= 4, 20_000, 'every message, once enabled');
    expect([...new Set(receiver.accepted.map((r) => r.json.event_id))].sort()).to.deep.equal([...ids].sort());
    await until(
      async () => (await deliveries.docs.countDocuments({ subscription })) === 0,
      10_000,
      'every attempt recorded, the queue empty',
    );
  });
});
