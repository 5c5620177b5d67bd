import type { Client, estypes } from '@elastic/elasticsearch';
import type { Config, Language } from '../../../config/index';
import { boolQuery } from '../../search/fullText';
import { aliasName, INDEX_SCHEMA_VERSION, versionedIndexName } from '../../search/indexNames';
import { indexDefinition } from '../../search/mappings';
import { OpsError } from '../opsError';
import { PLURAL, type RecordKind } from '../../domain/kinds';

/** Where an alias stands: the index(es) it serves from and the versioned indexes beside them. */
export interface AliasState {
  kind: RecordKind;
  lang: Language;
  alias: string;
  /** Indexes the alias points to (normally one; none when the alias is missing). */
  live: string[];
  /** Versioned indexes of this alias it does not point to: half-built leftovers of a rebuild. */
  leftovers: string[];
  /** Highest version among the alias's versioned indexes (0 when there are none). */
  highestVersion: number;
}

/** `calendar-events-en` → `events/en`, how operators read a kind and language. */
export function label(kind: RecordKind, lang?: Language): string {
  return lang ? `${PLURAL[kind]}/${lang}` : PLURAL[kind];
}

/** The write alias of an index being rebuilt behind `alias` (see src/indexer/reindexTargets.ts). */
export function rebuildAlias(alias: string): string {
  return `${alias}-rebuild`;
}

function statusOf(err: unknown): number | undefined {
  return (err as { meta?: { statusCode?: number } }).meta?.statusCode;
}

function versionOf(index: string, alias: string): number {
  const match = index.startsWith(`${alias}-v`) ? /^(\d+)$/.exec(index.slice(alias.length + 2)) : null;
  return match ? Number(match[1]) : 0;
}

/** Indexes behind `alias`, or [] when it does not exist. */
export async function indexesBehind(client: Client, alias: string): Promise<string[]> {
  try {
    return Object.keys(await client.indices.getAlias({ name: alias }));
  } catch (err) {
    if (statusOf(err) === 404) return [];
    throw err;
  }
}

export async function readAliasState(
  client: Client,
  config: Config,
  kind: RecordKind,
  lang: Language,
): Promise<AliasState> {
  const alias = aliasName(config, kind, lang);
  const [live, versioned, sameName] = await Promise.all([
    indexesBehind(client, alias),
    client.indices.get({
      index: `${alias}-v*`,
      allow_no_indices: true,
      ignore_unavailable: true,
      expand_wildcards: 'all',
    }),
    client.indices.exists({ index: alias }),
  ]);
  if (sameName && live.length === 0) {
    throw new OpsError(
      `${alias} is an index, not an alias (created by a write without the alias): delete it (curl -XDELETE ${config.elasticsearch.url}/${alias}) and run the reindex again`,
    );
  }
  const names = Object.keys(versioned).filter((name) => versionOf(name, alias) > 0);
  return {
    kind,
    lang,
    alias,
    live,
    leftovers: names.filter((name) => !live.includes(name)),
    highestVersion: Math.max(
      0,
      ...names.map((name) => versionOf(name, alias)),
      ...live.map((name) => versionOf(name, alias)),
    ),
  };
}

/** The name of the next index behind the alias: never reused, never the schema's first name. */
export function nextIndexName(config: Config, state: AliasState): string {
  return versionedIndexName(config, state.kind, state.lang, Math.max(state.highestVersion, INDEX_SCHEMA_VERSION) + 1);
}

/** Documents in `index` (as of its last refresh). */
export async function documentCount(client: Client, index: string): Promise<number> {
  return (await client.count({ index })).count;
}

/**
 * The records an event index holds (as of its last refresh): its single events, and each series
 * once however many occurrence documents it has (counted exactly, page by page).
 */
export async function eventRecordCount(client: Client, index: string): Promise<number> {
  const occurrence: estypes.QueryDslQueryContainer = { exists: { field: 'recurrence_id' } };
  const singles = client.count({ index, query: boolQuery({ must_not: [occurrence] }) });
  singles.catch(() => undefined); // awaited after the first page of series
  let records = 0;
  let after: Record<string, number> | undefined;
  for (;;) {
    const response = await client.search({
      index,
      size: 0,
      query: occurrence,
      aggs: {
        series: {
          composite: {
            size: 10_000,
            sources: [{ id: { terms: { field: 'series_id' } } }],
            ...(after ? { after } : {}),
          },
        },
      },
    });
    const series = response.aggregations?.series as
      { buckets: unknown[]; after_key?: Record<string, number> } | undefined;
    records += series?.buckets.length ?? 0;
    if (!series?.after_key || series.buckets.length === 0) return records + (await singles).count;
    after = series.after_key;
  }
}

/**
 * Creates the index to rebuild into, with the current mapping and the identity of the database
 * it is built from, refresh off while it is loaded, and its write alias; waits until it can take
 * writes.
 */
export async function createBuildIndex(
  client: Client,
  build: { kind: RecordKind; lang: Language; index: string; writeAlias: string; instance: string },
): Promise<void> {
  const { kind, lang, index, writeAlias, instance } = build;
  await client.indices.create({
    index,
    ...indexDefinition(kind, lang, '-1', instance),
    aliases: { [writeAlias]: {} },
  });
  await client.cluster.health({ index, wait_for_status: 'yellow', timeout: '60s' });
}

/** After loading: the index refreshes like the live ones and is refreshed now (both at once). */
export async function finishBuildIndex(client: Client, config: Config, index: string): Promise<void> {
  await Promise.all([
    client.indices.putSettings({ index, settings: { refresh_interval: config.elasticsearch.refreshInterval } }),
    client.indices.refresh({ index }),
  ]);
}

/** Deletes indexes, ignoring those already gone. */
export async function deleteIndexes(client: Client, indexes: string[]): Promise<void> {
  if (indexes.length === 0) return;
  await client.indices.delete({ index: indexes, ignore_unavailable: true });
}

/** Removes a write alias wherever it is (a crashed run may have left it on any index). */
export async function removeWriteAlias(client: Client, writeAlias: string, from = '_all'): Promise<void> {
  try {
    await client.indices.deleteAlias({ index: from, name: writeAlias });
  } catch (err) {
    if (statusOf(err) !== 404) throw err;
  }
}

/**
 * Points each alias at its new index, all in ONE `updateAliases` call (atomic: readers see the
 * old indexes or the new ones, never none). Returns, per alias, the indexes it pointed to before.
 */
export async function swapAliases(
  client: Client,
  swaps: { alias: string; index: string }[],
): Promise<Map<string, string[]>> {
  const before = new Map<string, string[]>(
    await Promise.all(
      swaps.map(
        async (swap) =>
          [swap.alias, (await indexesBehind(client, swap.alias)).filter((index) => index !== swap.index)] as const,
      ),
    ),
  );
  const actions = swaps.flatMap((swap) => [
    ...(before.get(swap.alias) ?? []).map((index) => ({ remove: { index, alias: swap.alias } })),
    { add: { index: swap.index, alias: swap.alias } },
  ]);
  await client.indices.updateAliases({ actions });
  return before;
}
