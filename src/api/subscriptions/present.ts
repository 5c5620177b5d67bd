import type { Config } from '../../../config';
import { NAMESPACE_PATH } from '../../domain/recordUrls';
import type { DeliveryDoc } from '../../storage/webhooks/deliveries';
import type { SubscriptionDoc } from '../../storage/webhooks/subscriptions';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const subscriptionUrl = (config: Pick<Config, 'apiUrl'>, id: number) =>
  `${config.apiUrl}${NAMESPACE_PATH}/subscriptions/${id}`;

/** A subscription as the API shows it: never its secret. */
export function presentSubscription(config: Pick<Config, 'apiUrl'>, doc: SubscriptionDoc): Record<string, unknown> {
  return {
    id: doc._id,
    url: doc.url,
    filters: doc.filters,
    language: doc.language,
    status: doc.status,
    disabled_reason: doc.disabledReason,
    disabled_at: iso(doc.disabledAt),
    failing_since: iso(doc.failingSince),
    created: iso(doc.created),
    modified: iso(doc.modified),
    rest_url: subscriptionUrl(config, doc._id),
  };
}

/** One message of the delivery log. */
export function presentDelivery(doc: DeliveryDoc): Record<string, unknown> {
  return {
    id: doc._id,
    type: doc.type,
    event_id: doc.event,
    occurred_at: iso(doc.occurredAt),
    record: doc.record,
    status: doc.status,
    attempts: doc.attempts,
    last_attempt_at: iso(doc.lastAttemptAt),
    status_code: doc.lastStatusCode,
    error: doc.lastError,
    next_retry: doc.status === 'pending' ? iso(doc.nextAttemptAt) : null,
    log: doc.log.map((a) => ({ at: iso(a.at), status_code: a.statusCode, error: a.error, duration_ms: a.durationMs })),
  };
}
