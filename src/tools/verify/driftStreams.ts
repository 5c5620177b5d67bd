import type { Client, estypes } from '@elastic/elasticsearch';
import type { Services } from '../../services/container';
import { storeOf } from '../../storage/stores';
import type { SyncEntry } from '../../storage/syncQueue';
import { recordIdBatches } from '../../indexer/recordStream';
import type { RecordKind } from '../../domain/kinds';

/** A record as MongoDB has it: its ID and sync entry (none when it never had one). */
export interface DatabaseItem {
  id: number;
  entry: SyncEntry | undefined;
}

/** An index document: its ID and Elasticsearch `_version` (the external version it was written at). */
export interface IndexItem {
  id: number;
  version: number;
}

/** Every record of `kind`, ascending by ID, with its sync entry; `pageSize` read at a time. */
export async function* databaseItems(
  services: Services,
  kind: RecordKind,
  pageSize: number,
  signal?: AbortSignal,
): AsyncGenerator<DatabaseItem[]> {
  for await (const ids of recordIdBatches(storeOf(services.stores, kind), pageSize, signal)) {
    const entries = await services.sync.entriesOf(kind, ids);
    yield ids.map((id) => ({ id, entry: entries.get(id) }));
  }
}

/** Every document behind `alias`, ascending by ID (search_after on `id`), `pageSize` at a time. */
export async function* indexItems(
  client: Client,
  alias: string,
  pageSize: number,
  signal?: AbortSignal,
): AsyncGenerator<IndexItem[]> {
  let after: estypes.SortResults | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const response = await client.search({
      index: alias,
      size: pageSize,
      _source: false,
      version: true,
      track_total_hits: false,
      sort: [{ id: { order: 'asc' } }],
      ...(after ? { search_after: after } : {}),
    });
    const hits = response.hits.hits;
    // A series is indexed as its occurrences (`{id}@{recurrence_id}`, sorted together by `id`),
    // all at the series' version: one item per series.
    const items = hits
      .map((hit) => ({ id: Number(String(hit._id).split('@')[0]), version: hit._version ?? 0 }))
      .filter((item, i, all) => i === 0 || all[i - 1]!.id !== item.id);
    if (items.length > 0) yield items;
    if (hits.length < pageSize) return;
    after = hits[hits.length - 1]?.sort;
  }
}

/** Reads a stream of pages one item at a time, with a look at the next one. */
export class Peekable<T> {
  private page: T[] = [];
  private position = 0;
  private done = false;

  constructor(private readonly pages: AsyncIterator<T[]>) {}

  async peek(): Promise<T | undefined> {
    while (this.position >= this.page.length && !this.done) {
      const next = await this.pages.next();
      if (next.done) this.done = true;
      else {
        this.page = next.value;
        this.position = 0;
      }
    }
    return this.page[this.position];
  }

  async take(): Promise<T | undefined> {
    const item = await this.peek();
    this.position++;
    return item;
  }

  async close(): Promise<void> {
    await this.pages.return?.(undefined);
  }
}

/** One step of a merge of the two ID-sorted streams. */
export type Pair = { id: number; database?: DatabaseItem; index?: IndexItem };

/** Merges the two streams by ID, yielding each ID once with what each side has. */
export async function* mergeById(database: Peekable<DatabaseItem>, index: Peekable<IndexItem>): AsyncGenerator<Pair> {
  for (;;) {
    const [left, right] = await Promise.all([database.peek(), index.peek()]);
    if (!left && !right) return;
    if (left && (!right || left.id < right.id))
      yield { id: left.id, database: (await database.take()) as DatabaseItem };
    else if (right && (!left || right.id < left.id)) yield { id: right.id, index: (await index.take()) as IndexItem };
    else
      yield {
        id: (left as DatabaseItem).id,
        database: (await database.take()) as DatabaseItem,
        index: (await index.take()) as IndexItem,
      };
  }
}
