import type { Config, Language } from '../../config';
import type { SyncKind } from '../storage/syncQueue';

export const SYNC_KINDS: readonly SyncKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];

export const PLURAL: Record<SyncKind, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
};

/**
 * Version of the index definitions (mappings and settings) in src/search/mappings.ts. A change
 * that existing indexes cannot take in place bumps it, and the reindex script moves the aliases.
 */
export const INDEX_SCHEMA_VERSION = 2;

/** The alias every reader and writer uses: `${prefix}-events-en`. */
export function aliasName(config: Config, kind: SyncKind, lang: Language): string {
  return `${config.elasticsearch.indexPrefix}-${PLURAL[kind]}-${lang}`;
}

/** The concrete index behind an alias: `${prefix}-events-en-v1`. */
export function versionedIndexName(
  config: Config,
  kind: SyncKind,
  lang: Language,
  version = INDEX_SCHEMA_VERSION,
): string {
  return `${aliasName(config, kind, lang)}-v${version}`;
}
