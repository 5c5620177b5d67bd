import type { Db } from 'mongodb';
import type { Config } from '../../../config';
import { SecretBox } from '../../lib/secretBox';
import { DeliveryQueue } from './deliveries';
import { MatchStore } from './matches';
import { webhookSecretKey } from './secretKey';
import { SubscriptionStore } from './subscriptions';

/** Subscriptions, their match sets and the delivery queue; `box` null: no key, webhooks are off. */
export interface WebhookStores {
  subscriptions: SubscriptionStore;
  matches: MatchStore;
  deliveries: DeliveryQueue;
  box: SecretBox | null;
}

export function openWebhookStores(db: Db, config: Config): WebhookStores {
  const key = webhookSecretKey(config.webhooks);
  return {
    subscriptions: new SubscriptionStore(db),
    matches: new MatchStore(db),
    deliveries: new DeliveryQueue(db),
    box: key ? new SecretBox(key) : null,
  };
}

export async function ensureWebhookIndexes(stores: WebhookStores): Promise<void> {
  await Promise.all([
    stores.subscriptions.ensureIndexes(),
    stores.matches.ensureIndexes(),
    stores.deliveries.ensureIndexes(),
  ]);
}
