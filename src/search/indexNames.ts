import type { Config, Language } from '../../config';
import { PLURAL, type RecordKind } from '../domain/kinds';

/**
 * Version of the index definitions (mappings and settings) in src/search/mappings.ts. A change
 * that existing indexes cannot take in place bumps it, and the reindex script moves the aliases.
 */
export const INDEX_SCHEMA_VERSION = 6;

/** The alias every reader and writer uses: `${prefix}-events-en`. */
export function aliasName(config: Config, kind: RecordKind, lang: Language): string {
  return `${config.elasticsearch.indexPrefix}-${PLURAL[kind]}-${lang}`;
}

/** The concrete index behind an alias: `${prefix}-events-en-v1`. */
export function versionedIndexName(
  config: Config,
  kind: RecordKind,
  lang: Language,
  version = INDEX_SCHEMA_VERSION,
): string {
  return `${aliasName(config, kind, lang)}-v${version}`;
}
