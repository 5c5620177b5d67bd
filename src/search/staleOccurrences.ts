import type { Client } from '@elastic/elasticsearch';
import { boolQuery } from './fullText';
import { LANGUAGES, type Config } from '../../config';
import { aliasName } from './indexNames';

/** An event whose index documents of versions below `version` are stale. */
export interface StaleEvent {
  id: number;
  version: number;
}

/**
 * Removes the event documents a series no longer has: every document of the event indexed at an
 * older version than `version` (occurrences gone from the rule or the window, the single
 * document of an event that became a series, or all of a deleted series). The live indexes and
 * any being rebuilt behind them are searched. A search sees what the last refresh made
 * searchable: `refreshFirst` when documents to remove may have been sent since (the caller knows
 * when its events' documents were last sent). The removal itself shows in lists at the next
 * refresh, like any indexing.
 */
export async function deleteStaleEventDocuments(
  client: Client,
  config: Config,
  events: StaleEvent[],
  { refreshFirst, signal }: { refreshFirst: boolean; signal?: AbortSignal },
): Promise<void> {
  if (events.length === 0) return;
  const index = LANGUAGES.map((lang) => `${aliasName(config, 'event', lang)}*`);
  const options = { ignore_unavailable: true, allow_no_indices: true };
  if (refreshFirst) await client.indices.refresh({ index, ...options }, { signal });
  const should = events.map(({ id, version }) =>
    boolQuery({ filter: [{ term: { series_id: id } }, { range: { indexed_version: { lt: version } } }] }),
  );
  await client.deleteByQuery(
    { index, ...options, conflicts: 'proceed', query: boolQuery({ minimum_should_match: 1 }, should) },
    { signal },
  );
}
