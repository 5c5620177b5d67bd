import type { Client } from '@elastic/elasticsearch';
import { LANGUAGES, type Config, type Language } from '../../config';
import type { SyncKind } from '../storage/syncQueue';
import { aliasName, SYNC_KINDS, versionedIndexName } from './indexNames';
import { indexDefinition } from './mappings';

interface SearchServices {
  config: Config;
  search: Client;
}

function errorType(err: unknown): string | undefined {
  return (err as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
}

async function ensureIndex(services: SearchServices, kind: SyncKind, lang: Language): Promise<void> {
  const { config, search } = services;
  const alias = aliasName(config, kind, lang);
  if (await search.indices.existsAlias({ name: alias })) return;
  const index = versionedIndexName(config, kind, lang);
  try {
    await search.indices.create({
      index,
      ...indexDefinition(kind, lang, config.elasticsearch.refreshInterval),
      aliases: { [alias]: {} },
    });
  } catch (err) {
    // Another process (API or worker) created it at the same moment: make sure the alias is there.
    if (errorType(err) !== 'resource_already_exists_exception') throw err;
    await search.indices.putAlias({ index, name: alias });
  }
}

/**
 * Creates every missing index (one per kind and language, behind its alias) idempotently; safe
 * to call from several processes at startup.
 */
export async function ensureSearchIndexes(services: SearchServices): Promise<void> {
  await Promise.all(SYNC_KINDS.flatMap((kind) => LANGUAGES.map((lang) => ensureIndex(services, kind, lang))));
}
