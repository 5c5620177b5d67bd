import type { Client } from '@elastic/elasticsearch';
import type { Db, MongoClient } from 'mongodb';
import type { Config } from '../../config';
import { ApiKeyStore } from '../storage/apiKeys';
import type { Logger } from '../lib/log';
import { createMetrics, type Metrics } from '../metrics/registry';
import { createSearchClient } from '../search/client';
import { connectMongo } from '../storage/mongo';
import { createStores, ensureStoreIndexes, type Stores } from '../storage/stores';
import { SyncQueue } from '../storage/syncQueue';
import { ensureInstanceId } from '../storage/instanceIdentity';
import { ensureWebhookIndexes, openWebhookStores, type WebhookStores } from '../storage/webhooks';

/** Everything a request handler, the sync worker or an ops script works with. */
export interface Services {
  config: Config;
  log: Logger;
  mongo: MongoClient;
  db: Db;
  search: Client;
  sync: SyncQueue;
  apiKeys: ApiKeyStore;
  stores: Stores;
  /** The database's identity, carried by the search indexes built from it (`_meta.instance`). */
  instanceId: string;
  /** Webhook subscriptions, match sets and the delivery queue (EXTENSIONS part 18). */
  webhooks: WebhookStores;
  /** This process's Prometheus metrics (`GET /metrics`; the in-process sync worker reports to it). */
  metrics: Metrics;
  close(): Promise<void>;
}

/** Connects to MongoDB and Elasticsearch (URLs must be resolved) and creates indexes idempotently. */
export async function openServices(config: Config, log: Logger): Promise<Services> {
  if (!config.mongo.url || !config.elasticsearch.url)
    throw new Error('openServices needs resolved MONGO_URL and ELASTICSEARCH_URL');
  const { client, db } = await connectMongo({ ...config.mongo, url: config.mongo.url });
  const search = createSearchClient({ url: config.elasticsearch.url, timeoutMs: config.elasticsearch.timeoutMs });
  const sync = new SyncQueue(db);
  const apiKeys = new ApiKeyStore(db, config.auth.keyCacheMs);
  const stores = createStores(db, sync);
  const webhooks = openWebhookStores(db, config);
  const [instanceId] = await Promise.all([
    ensureInstanceId(db),
    sync.ensureIndexes(),
    apiKeys.ensureIndexes(),
    ensureStoreIndexes(stores),
    ensureWebhookIndexes(webhooks),
  ]);
  return {
    instanceId,
    config,
    log,
    mongo: client,
    db,
    search,
    sync,
    apiKeys,
    stores,
    webhooks,
    metrics: createMetrics(),
    close: async () => {
      await Promise.allSettled([client.close(), search.close()]);
    },
  };
}
