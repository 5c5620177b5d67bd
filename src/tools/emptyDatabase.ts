import { reindexTargets } from '../indexer/reindexTargets';
import type { Services } from '../services/container';

/**
 * Removes everything the service stored (test and benchmark worlds): drops the database where the
 * server can; jongodb cannot drop databases nor always list collections, so every collection the
 * service creates, and any the server lists, is emptied instead.
 */
export async function emptyDatabase(services: Services): Promise<void> {
  const { db } = services;
  if (await db.dropDatabase().catch(() => false)) return;
  const listed = await db
    .listCollections({}, { nameOnly: true })
    .toArray()
    .then((infos) => infos.map((info) => info.name))
    .catch(() => [] as string[]);
  const own = [
    'counters',
    'api_keys',
    'instance',
    services.sync.entries.collectionName,
    services.sync.changes.entries.collectionName,
    'change_log_marks',
    'settings',
    reindexTargets(db).collectionName,
    ...Object.values(services.stores).map((store) => store.docs.collectionName),
    ...[
      services.webhooks.subscriptions.docs,
      services.webhooks.matches.docs,
      services.webhooks.deliveries.docs,
      services.webhooks.deliveries.finished,
      services.webhooks.deliveries.payloads.docs,
    ].map((docs) => docs.collectionName),
  ];
  await Promise.all(
    [...new Set([...own, ...listed])].map((name) =>
      db
        .collection(name)
        .deleteMany({})
        .catch(() => undefined),
    ),
  );
}
