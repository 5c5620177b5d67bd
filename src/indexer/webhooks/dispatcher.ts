import type { Services } from '../../services/container';
import { Batcher } from '../../lib/batcher';
import { signature } from '../../lib/standardWebhooks';
import type { AttemptRecord, DeliveryDoc, DeliveryStatus } from '../../storage/webhooks/deliveries';
import type { SubscriptionDoc } from '../../storage/webhooks/subscriptions';
import { CurrentSubscriptions } from './currentSubscriptions';
import { postWebhook, type PostOutcome } from './postWebhook';
import { ROUNDS_HELD, SendSlots, targetKey } from './sendSlots';

/** The message body of EXTENSIONS part 18, with `event_id`: a removal's record is null, the partner still learns which. */
export function messageBody(doc: DeliveryDoc): string {
  return JSON.stringify({
    id: doc._id,
    type: doc.type,
    subscription_id: doc.subscription,
    event_id: doc.event,
    occurred_at: doc.occurredAt.toISOString(),
    record: doc.record,
  });
}

/** The wait before attempt `attempts + 1`: doubling from `baseMs`, at most `maxMs`, the upper half jittered. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.round(full / 2 + random() * (full / 2));
}

/** A leased message and its receiver. */
interface Leased {
  doc: DeliveryDoc;
  target: string;
}

/** What becomes of a leased message: an attempt recorded, given back untried, or dropped. */
type Outcome = { record: AttemptRecord } | { release: DeliveryDoc } | { discard: DeliveryDoc };

/**
 * Works the durable delivery queue: leases due messages (the oldest of each subscription and
 * record first), signs and POSTs them, and records each attempt. A failed attempt is retried
 * with growing backoff; a message failing for WEBHOOK_RETRY_HOURS is given up and its
 * subscription disabled. Several dispatchers (processes) may run: leases keep them apart, and a
 * killed one's leases run out, so its messages are sent again (at least once).
 */
export class WebhookDispatcher {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private wakeRequested = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly slots: SendSlots<Leased>;
  /** Each attempt's subscription, read just before it (a change made since the claim is seen). */
  private readonly subscriptions: CurrentSubscriptions;
  /** The queue's writes after attempts, many messages a request (an attempt's slot is free meanwhile). */
  private readonly outcomes: Batcher<Outcome>;

  constructor(
    private readonly services: Services,
    private readonly owner: string,
  ) {
    this.slots = new SendSlots(this.settings.concurrency, this.settings.concurrencyPerTarget);
    const { subscriptions, deliveries } = services.webhooks;
    this.subscriptions = new CurrentSubscriptions(subscriptions);
    this.outcomes = new Batcher<Outcome>(async (outcomes) => {
      const records: AttemptRecord[] = [];
      const released: DeliveryDoc[] = [];
      const discarded: DeliveryDoc[] = [];
      for (const outcome of outcomes) {
        if ('record' in outcome) records.push(outcome.record);
        else if ('release' in outcome) released.push(outcome.release);
        else discarded.push(outcome.discard);
      }
      await deliveries.recordAttempts(owner, records);
      await deliveries.release(released, owner);
      await deliveries.discard(discarded, owner);
      return [];
    });
  }

  private get settings() {
    return this.services.config.webhooks;
  }

  /**
   * Long enough for a message to wait for its receiver's slot (ROUNDS_HELD - 1 attempts at
   * most), be sent (one attempt) and recorded.
   */
  private get leaseMs(): number {
    return this.settings.timeoutMs * (ROUNDS_HELD + 1) + 5_000;
  }

  start(): void {
    if (this.running || !this.services.webhooks.box) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.requestWake();
    await this.loop;
    this.loop = null;
  }

  /** New messages were queued (in this process), or an attempt ended: look for due ones now. */
  requestWake(): void {
    this.wakeRequested = true;
    this.wake?.();
  }

  private async idle(ms: number): Promise<void> {
    if (this.wakeRequested) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }

  private async run(): Promise<void> {
    const { deliveries } = this.services.webhooks;
    while (this.running) {
      this.wakeRequested = false;
      try {
        // An attempt ending wakes the loop only for claims that stay large (wantsMore); a poll also
        // claims for other receivers when one receiver's backlog is all that waits.
        const wanted = this.slots.wantsMore || this.slots.leavesSlotsIdle ? this.slots.claimable : 0;
        const claimed = wanted > 0 ? await this.claim(wanted) : 0;
        this.startReady();
        // A full claim may leave more due: claim again as soon as there is room.
        if (claimed === wanted && claimed > 0 && this.slots.wantsMore) continue;
        await this.idle(this.settings.pollMs);
      } catch (err) {
        this.services.log.warn({ err }, 'webhooks: could not read the delivery queue');
        await this.idle(this.settings.pollMs * 4);
      }
    }
    // Leased but not started: give them back now rather than when their leases run out.
    await deliveries.release(
      this.slots.drain().map(({ doc }) => doc),
      this.owner,
    );
    // Attempts under way, then their outcomes' writes (each attempt adds one to inFlight: settle).
    while (this.inFlight.size) await Promise.all(this.inFlight);
  }

  /** Leases up to `limit` due messages in a few round trips, each receiver within its share. Returns how many it leased. */
  private async claim(limit: number): Promise<number> {
    const { deliveries, subscriptions } = this.services.webhooks;
    const targets = await subscriptions.targets();
    const targetOf = new Map(targets.map((s) => [s._id, targetKey(s.url)]));
    const admits = this.slots.admitter();
    const full = this.slots.fullTargets();
    const passedOver = targets.filter((s) => s.status !== 'active' || full.has(targetOf.get(s._id)!)).map((s) => s._id);
    const claimed = await deliveries.claim(this.owner, limit, this.leaseMs, passedOver, ({ subscription }) =>
      admits(targetOf.get(subscription) ?? ''),
    );
    this.slots.add(claimed.map((doc) => ({ doc, target: targetOf.get(doc.subscription) ?? '' })));
    return claimed.length;
  }

  /** Starts the attempts that have a free slot; each one ending starts the next. */
  private startReady(): void {
    for (const leased of this.slots.startable()) {
      const attempt: Promise<void> = this.deliver(leased.doc)
        .catch((err: unknown) => this.services.log.error({ err, id: leased.doc._id }, 'webhooks: delivery failed'))
        .finally(() => {
          this.inFlight.delete(attempt);
          this.slots.done(leased);
          if (this.running) this.startReady();
          if (this.slots.wantsMore) this.requestWake();
        });
      this.inFlight.add(attempt);
    }
  }

  /**
   * One attempt. Its outcome is written with others' (`outcomes`) once the attempt ends: the
   * message stays leased until then, so the next one of its record waits for it.
   */
  private async deliver(doc: DeliveryDoc): Promise<void> {
    const { box } = this.services.webhooks;
    const subscription = await this.subscriptions.get(doc.subscription);
    if (!subscription) return this.settle({ discard: doc });
    if (subscription.status !== 'active') return this.settle({ release: doc });
    let outcome: PostOutcome;
    try {
      const secret = box!.open(subscription.secret);
      const timestamp = Math.floor(Date.now() / 1000);
      const body = messageBody(doc);
      outcome = await postWebhook(
        subscription.url,
        {
          'Content-Type': 'application/json',
          'User-Agent': 'calendar-webhooks/1',
          'Webhook-Id': doc._id,
          'Webhook-Timestamp': String(timestamp),
          'Webhook-Signature': signature(secret, doc._id, timestamp, body),
        },
        body,
        { timeoutMs: this.settings.timeoutMs, allowPrivate: this.settings.allowPrivate },
      );
    } catch (err) {
      // A secret sealed under another key: WEBHOOK_SECRET_KEY changed (docs/operations.md).
      this.services.log.error({ err, subscription: subscription._id }, 'webhooks: the signing secret cannot be read');
      outcome = { statusCode: null, error: 'the signing secret cannot be read with the configured key', durationMs: 0 };
    }
    await this.record(doc, outcome, subscription);
  }

  /** Writes an outcome with others; an attempt waiting for the write is no longer in its slot. */
  private settle(outcome: Outcome): void {
    const written: Promise<void> = this.outcomes
      .run(outcome)
      .catch((err: unknown) =>
        this.services.log.warn(
          { err },
          'webhooks: an outcome was not written; the message is sent again after its lease',
        ),
      )
      .finally(() => {
        this.inFlight.delete(written);
        this.requestWake();
      });
    this.inFlight.add(written);
  }

  /**
   * Where a failed message's retry window starts: its first attempt, or the subscription's last
   * enabling when later. Read again before giving up: a subscription enabled while this attempt
   * was under way had its waiting messages' windows restarted (retryAfresh), not this one's.
   */
  private async retryWindowStart(
    doc: DeliveryDoc,
    subscription: SubscriptionDoc,
    at: Date,
    windowMs: number,
  ): Promise<Date> {
    const first = doc.firstAttemptAt ?? at;
    const since = (current: SubscriptionDoc | null) =>
      current?.enabledAt && current.enabledAt > first ? current.enabledAt : first;
    const start = since(subscription);
    if (at.getTime() - start.getTime() < windowMs) return start;
    return since(await this.services.webhooks.subscriptions.get(doc.subscription));
  }

  private async record(doc: DeliveryDoc, outcome: PostOutcome, subscription: SubscriptionDoc): Promise<void> {
    const { subscriptions } = this.services.webhooks;
    const reporter = this.services.metrics.webhooks;
    const at = new Date();
    const attempt = { at, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs };
    if (outcome.error === null) {
      this.settle({ record: { doc, attempt, status: 'delivered' } });
      // Read just before the attempt (currentSubscriptions.ts): a failure recorded since by another attempt is cleared by the next success.
      if (subscription.failingSince) await subscriptions.deliverySucceeded(doc.subscription);
      reporter.sent();
      return;
    }
    const windowMs = this.settings.retryHours * 3_600_000;
    const firstAttempt = await this.retryWindowStart(doc, subscription, at, windowMs);
    let status: DeliveryStatus = 'pending';
    let nextAttemptAt: Date | undefined;
    if (at.getTime() - firstAttempt.getTime() >= windowMs) {
      status = 'failed';
      reporter.failed();
      const reason = `deliveries failed for ${this.settings.retryHours} h; last: ${outcome.error}`;
      if (await subscriptions.disable(doc.subscription, reason))
        this.services.log.warn({ subscription: doc.subscription, reason }, 'webhooks: subscription disabled');
    } else {
      const delay = retryDelayMs(doc.attempts + 1, this.settings.retryBaseMs, this.settings.retryMaxMs);
      nextAttemptAt = new Date(Math.min(at.getTime() + delay, firstAttempt.getTime() + windowMs));
      reporter.retried();
      // Only the first failure is stored (the update matches nothing once failingSince is set).
      if (!subscription.failingSince) await subscriptions.deliveryFailed(doc.subscription, firstAttempt);
    }
    this.services.log.info(
      { id: doc._id, subscription: doc.subscription, error: outcome.error, attempts: doc.attempts + 1, status },
      'webhooks: attempt failed',
    );
    this.settle({ record: { doc, attempt, status, nextAttemptAt } });
  }
}
