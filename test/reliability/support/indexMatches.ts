import { isDeepStrictEqual } from 'node:util';
import { LANGUAGES, type Language } from '../../../config';
import { viewOf } from '../../../src/services/views/recordViews';
import { aliasName } from '../../../src/search/indexNames';
import type { Services } from '../../../src/services/container';
import type { BaseDoc, StoredRecord } from '../../../src/storage/storedRecord';
import type { SyncEntry } from '../../../src/storage/syncQueue';
import { RECORD_KINDS, type RecordKind } from '../../../src/domain/kinds';
import { storeOf } from '../../../src/storage/stores';

export interface SyncDifference {
  kind: RecordKind;
  id: number;
  lang?: Language;
  problem: string;
}

export interface SyncComparison {
  /** Records in the database, all kinds. */
  records: number;
  /** Index documents compared (records × languages). */
  documents: number;
  differences: SyncDifference[];
}

interface IndexedDoc {
  version: number;
  record: Record<string, unknown>;
}

async function indexedDocs(services: Services, kind: RecordKind, lang: Language): Promise<Map<number, IndexedDoc>> {
  const docs = new Map<number, IndexedDoc>();
  const client = services.search;
  let page = await client.search<{ record: Record<string, unknown> }>(
    { index: aliasName(services.config, kind, lang), scroll: '1m', size: 1000, version: true, _source: ['record'] },
    { requestTimeout: 60_000 },
  );
  while (page.hits.hits.length > 0) {
    for (const hit of page.hits.hits)
      docs.set(Number(hit._id), { version: hit._version ?? 0, record: hit._source!.record });
    page = await client.scroll({ scroll_id: page._scroll_id!, scroll: '1m' }, { requestTimeout: 60_000 });
  }
  if (page._scroll_id) await client.clearScroll({ scroll_id: page._scroll_id }).catch(() => undefined);
  return docs;
}

function group<D extends BaseDoc>(docs: D[]): StoredRecord<D>[] {
  const records = new Map<number, StoredRecord<D>>();
  for (const doc of docs) {
    const record = records.get(doc.id) ?? { id: doc.id, originalLang: doc.originalLang, docs: {} };
    record.docs[doc.lang] = doc;
    records.set(doc.id, record);
  }
  return [...records.values()];
}

type ApiRecord = Record<string, unknown>;

const withoutCount = ({ count: _count, ...term }: ApiRecord) => term;

/**
 * What an indexed record must match: single-read and list-only fields (`occurrence`) aside, and for events without their
 * terms' counts, which index documents hold as the term index had them (lists serve the term
 * index's current counts instead; the term documents themselves are compared exactly).
 */
function comparable(kind: RecordKind, { json_ld: _jsonLd, occurrence: _occurrence, ...record }: ApiRecord): ApiRecord {
  if (kind !== 'event') return record;
  const terms = (field: string) => ((record[field] as ApiRecord[] | undefined) ?? []).map(withoutCount);
  return { ...record, categories: terms('categories'), tags: terms('tags') };
}

/**
 * Compares the whole search index with the database, as `sync:verify` would: every record of
 * every kind has, in every language index, a document at its latest sync version whose embedded
 * API record is what the kind's view presents from the database now (see `comparable`); no document is
 * left for a record that is gone; no sync entry is still pending.
 */
export async function compareIndexWithDatabase(services: Services): Promise<SyncComparison> {
  await services.search.indices.refresh({ index: `${services.config.elasticsearch.indexPrefix}-*` });
  const result: SyncComparison = { records: 0, documents: 0, differences: [] };
  for (const kind of RECORD_KINDS) {
    const records = group(await storeOf(services.stores, kind).docs.find({}).toArray());
    result.records += records.length;
    const entries = new Map<number, SyncEntry>();
    for (const entry of await services.sync.entries.find({ kind }).toArray()) entries.set(entry.id, entry);
    for (const entry of entries.values())
      if (entry.pending)
        result.differences.push({ kind, id: entry.id, problem: `sync entry still pending (v${entry.version})` });
    for (const lang of LANGUAGES) {
      const indexed = await indexedDocs(services, kind, lang);
      for (let i = 0; i < records.length; i += 500) {
        const chunk = records.slice(i, i + 500);
        const views = await viewOf(kind)(services, chunk, lang);
        chunk.forEach((record, n) => {
          result.documents++;
          const doc = indexed.get(record.id);
          const version = entries.get(record.id)?.version;
          if (!doc) return void result.differences.push({ kind, id: record.id, lang, problem: 'not indexed' });
          if (doc.version !== version)
            result.differences.push({
              kind,
              id: record.id,
              lang,
              problem: `indexed at v${doc.version}, database at v${version}`,
            });
          if (!isDeepStrictEqual(comparable(kind, doc.record), comparable(kind, views[n]!)))
            result.differences.push({ kind, id: record.id, lang, problem: 'indexed record differs from the database' });
        });
      }
      const ids = new Set(records.map((record) => record.id));
      for (const id of indexed.keys())
        if (!ids.has(id)) result.differences.push({ kind, id, lang, problem: 'indexed but not in the database' });
    }
  }
  return result;
}

/** A short, printable summary of the first differences. */
export function describeDifferences(comparison: SyncComparison, max = 10): string {
  return comparison.differences
    .slice(0, max)
    .map((d) => `${d.kind} ${d.id}${d.lang ? ` [${d.lang}]` : ''}: ${d.problem}`)
    .join('\n');
}
