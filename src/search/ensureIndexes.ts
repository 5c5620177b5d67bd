import type { Client } from '@elastic/elasticsearch';
import { LANGUAGES, type Config, type Language } from '../../config';
import { createBackgroundSearchClient } from './client';
import { aliasName, versionedIndexName } from './indexNames';
import { indexDefinition } from './mappings';
import { RECORD_KINDS, type RecordKind } from '../domain/kinds';

function errorType(err: unknown): string | undefined {
  return (err as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
}

async function ensureIndex(
  config: Config,
  instance: string,
  search: Client,
  kind: RecordKind,
  lang: Language,
  signal: AbortSignal | undefined,
): Promise<void> {
  const alias = aliasName(config, kind, lang);
  if (await search.indices.existsAlias({ name: alias }, { signal })) return;
  const index = versionedIndexName(config, kind, lang);
  try {
    await search.indices.create(
      {
        index,
        ...indexDefinition(kind, lang, config.elasticsearch.refreshInterval, instance),
        aliases: { [alias]: {} },
      },
      { signal },
    );
  } catch (err) {
    // Another process (API or worker) created it at the same moment: make sure the alias is there.
    if (errorType(err) !== 'resource_already_exists_exception') throw err;
    await search.indices.putAlias({ index, name: alias }, { signal });
  }
}

/** Index creation waits for shards to start: longer than the API's fail-fast timeout allows. */
async function withBackgroundClient<T>(config: Config, use: (client: Client) => Promise<T>): Promise<T> {
  const client = createBackgroundSearchClient(config.elasticsearch.url as string);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/**
 * Creates every missing index (one per kind and language, behind its alias) idempotently; safe
 * to call from several processes at startup.
 */
export async function ensureSearchIndexes(
  services: { config: Config; instanceId: string },
  signal?: AbortSignal,
): Promise<void> {
  await withBackgroundClient(services.config, async (client) => {
    // A few at a time: the master creates indexes one by one anyway.
    for (const kind of RECORD_KINDS)
      await Promise.all(
        LANGUAGES.map((lang) => ensureIndex(services.config, services.instanceId, client, kind, lang, signal)),
      );
  });
}

/** Creates the indexes if needed and waits until each can serve (its primary shard started). */
export async function waitForSearchIndexes(
  services: { config: Config; instanceId: string },
  timeoutMs = 120_000,
): Promise<void> {
  await ensureSearchIndexes(services);
  await withBackgroundClient(services.config, (client) =>
    client.cluster.health({
      index: `${services.config.elasticsearch.indexPrefix}-*`,
      wait_for_status: 'green',
      timeout: `${Math.round(timeoutMs / 1000)}s`,
    }),
  );
}
