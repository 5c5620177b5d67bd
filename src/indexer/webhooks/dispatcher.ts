import type { Services } from '../../services/container';
import { signature } from '../../lib/standardWebhooks';
import type { DeliveryDoc, DeliveryStatus } from '../../storage/webhooks/deliveries';
import { postWebhook, type PostOutcome } from './postWebhook';

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

  constructor(
    private readonly services: Services,
    private readonly owner: string,
  ) {}

  private get settings() {
    return this.services.config.webhooks;
  }

  /** Long enough for an attempt that times out, and for recording it. */
  private get leaseMs(): number {
    return this.settings.timeoutMs * 2 + 5_000;
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

  /** New messages were queued (in this process): look for due ones now. */
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
    const { deliveries, subscriptions } = this.services.webhooks;
    while (this.running) {
      this.wakeRequested = false;
      const room = this.settings.concurrency - this.inFlight.size;
      try {
        if (room > 0) {
          const disabled = await subscriptions.disabledIds();
          const claimed = await deliveries.claim(this.owner, room, this.leaseMs, disabled);
          for (const doc of claimed) {
            const attempt: Promise<void> = this.deliver(doc)
              .catch((err: unknown) => this.services.log.error({ err, id: doc._id }, 'webhooks: delivery failed'))
              .finally(() => {
                this.inFlight.delete(attempt);
                this.requestWake();
              });
            this.inFlight.add(attempt);
          }
          if (claimed.length === room) continue;
        }
        await Promise.race([...this.inFlight, this.idle(this.settings.pollMs)]);
      } catch (err) {
        this.services.log.warn({ err }, 'webhooks: could not read the delivery queue');
        await this.idle(this.settings.pollMs * 4);
      }
    }
    await Promise.all(this.inFlight);
  }

  private async deliver(doc: DeliveryDoc): Promise<void> {
    const { deliveries, subscriptions, box } = this.services.webhooks;
    const subscription = await subscriptions.get(doc.subscription);
    if (!subscription) return deliveries.discard(doc, this.owner);
    if (subscription.status !== 'active') return deliveries.release(doc, this.owner);
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
    await this.record(doc, outcome);
  }

  private async record(doc: DeliveryDoc, outcome: PostOutcome): Promise<void> {
    const { deliveries, subscriptions } = this.services.webhooks;
    const reporter = this.services.metrics.webhooks;
    const at = new Date();
    const attempt = { at, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs };
    if (outcome.error === null) {
      await deliveries.attempted(doc, this.owner, attempt, { status: 'delivered' });
      await subscriptions.deliverySucceeded(doc.subscription);
      reporter.sent();
      return;
    }
    const firstAttempt = doc.firstAttemptAt ?? at;
    const windowMs = this.settings.retryHours * 3_600_000;
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
      await subscriptions.deliveryFailed(doc.subscription, firstAttempt);
    }
    this.services.log.info(
      { id: doc._id, subscription: doc.subscription, error: outcome.error, attempts: doc.attempts + 1, status },
      'webhooks: attempt failed',
    );
    await deliveries.attempted(doc, this.owner, attempt, { status, nextAttemptAt });
  }
}
