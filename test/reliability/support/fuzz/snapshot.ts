import { createHash } from 'node:crypto';
import type { Services } from '../../../../src/services/container';

/** Collections a request may change: the records of every kind, the ID counters, the keys and the webhook subscriptions. */
function collections(services: Services): string[] {
  return [
    ...Object.values(services.stores).map((store) => store.docs.collectionName),
    'counters',
    'api_keys',
    services.webhooks.subscriptions.docs.collectionName,
  ];
}

/**
 * A fingerprint of everything requests can change (not the sync queue, which the worker updates
 * in the background): one hash per collection of its documents in `_id` order.
 */
export async function snapshot(services: Services): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  await Promise.all(
    collections(services).map(async (name) => {
      const docs = await services.db.collection(name).find({}).sort({ _id: 1 }).toArray();
      // A subscription's failure history is the dispatcher's, written in the background.
      if (name === services.webhooks.subscriptions.docs.collectionName) docs.forEach((doc) => delete doc.failingSince);
      hashes[name] = `${docs.length}:${createHash('sha1').update(JSON.stringify(docs)).digest('hex').slice(0, 12)}`;
    }),
  );
  return hashes;
}

/** Names of the collections whose fingerprint differs. */
export function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(before).filter((name) => before[name] !== after[name]);
}
