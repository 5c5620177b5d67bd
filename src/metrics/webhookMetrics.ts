import { Counter, Gauge, type Registry } from 'prom-client';

/** What the webhook dispatcher reports, attempt by attempt. */
export interface WebhookReporter {
  /** A message answered 2xx. */
  sent(): void;
  /** An attempt failed and the message will be tried again. */
  retried(): void;
  /** A message failed for WEBHOOK_RETRY_HOURS and was given up (its subscription disabled). */
  failed(): void;
}

export interface WebhookQueueFigures {
  pending: number;
  oldestPendingMs: number;
}

/**
 * The webhook counters, and the queue's depth and oldest age read at scrape time from `queue`
 * (undefined: unknown, the gauges are left out).
 */
export function webhookMetrics(
  registers: Registry[],
  queue: () => Promise<WebhookQueueFigures | undefined>,
): WebhookReporter {
  const counter = (name: string, help: string) => new Counter({ name, help, registers });
  const sent = counter(
    'calendar_webhook_deliveries_sent_total',
    'Webhook messages delivered (the receiver answered 2xx)',
  );
  const retried = counter(
    'calendar_webhook_deliveries_retried_total',
    'Webhook attempts that failed (non-2xx, timeout, refused target) and will be retried',
  );
  const failed = counter(
    'calendar_webhook_deliveries_failed_total',
    'Webhook messages given up after WEBHOOK_RETRY_HOURS of failures (their subscription is disabled)',
  );
  const gauge = (name: string, help: string, value: (figures: WebhookQueueFigures) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const figures = await queue();
        if (figures) this.set(value(figures));
      },
    });
  gauge('calendar_webhook_queue_depth', 'Webhook messages waiting to be delivered', (f) => f.pending);
  gauge(
    'calendar_webhook_queue_oldest_seconds',
    'Age of the oldest webhook message waiting to be delivered (0 when none)',
    (f) => f.oldestPendingMs / 1000,
  );
  return { sent: () => sent.inc(), retried: () => retried.inc(), failed: () => failed.inc() };
}
