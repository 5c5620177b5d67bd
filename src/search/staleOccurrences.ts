import type { Client } from '@elastic/elasticsearch';
import { boolQuery } from './fullText';
import { LANGUAGES, type Config } from '../../config';
import { aliasName } from './indexNames';

/**
 * Removes the event documents a series no longer has: every document of the event indexed at an
 * older version than `version` (occurrences gone from the rule or the window, the single
 * document of an event that became a series, or all of a deleted series). The live indexes and
 * any being rebuilt behind them are searched, refreshed first so recent documents are seen.
 */
export async function deleteStaleEventDocuments(
  client: Client,
  config: Config,
  events: { id: number; version: number }[],
  signal?: AbortSignal,
): Promise<void> {
  if (events.length === 0) return;
  const index = LANGUAGES.map((lang) => `${aliasName(config, 'event', lang)}*`);
  const options = { ignore_unavailable: true, allow_no_indices: true };
  await client.indices.refresh({ index, ...options }, { signal });
  const should = events.map(({ id, version }) =>
    boolQuery({ filter: [{ term: { series_id: id } }, { range: { indexed_version: { lt: version } } }] }),
  );
  await client.deleteByQuery(
    {
      index,
      ...options,
      conflicts: 'proceed',
      refresh: true,
      query: boolQuery({ minimum_should_match: 1 }, should),
    },
    { signal },
  );
}
