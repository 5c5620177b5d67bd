import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { LANGUAGES } from '../../config';
import { loadConfig } from '../../config';
import { createBackgroundSearchClient } from '../../src/search/client';
import { aliasName } from '../../src/search/indexNames';
import { indexDefinition } from '../../src/search/mappings';

/**
 * The reindex's floor: the same event documents (dumped from the live indexes first, untimed)
 * bulk-loaded straight into fresh indexes with the same mapping and settings as a rebuild
 * (refresh off while loading), the client's bulk helper, the same flush size and concurrency.
 * Timed like the reindex: from creating the indexes (as a rebuild does, all at once) to their
 * final refresh; `loadSeconds` leaves their creation out (how the bench timed it before 2026-11-27).
 * `tsx bench/reindex/bulkBaseline.ts <dump file>` prints records, seconds, records/s as JSON.
 */
async function dump(file: string): Promise<number> {
  const ids = new Set<string>();
  const config = loadConfig();
  const client = createBackgroundSearchClient(config.elasticsearch.url as string);
  const out = createWriteStream(file);
  for (const lang of LANGUAGES) {
    let after: unknown[] | undefined;
    for (;;) {
      const page = await client.search<Record<string, unknown>>({
        index: aliasName(config, 'event', lang),
        size: 1000,
        version: true,
        sort: [{ id: 'asc' }],
        ...(after ? { search_after: after as (string | number)[] } : {}),
      });
      const hits = page.hits.hits;
      if (hits.length === 0) break;
      for (const hit of hits) {
        if (!out.write(`${JSON.stringify({ lang, id: hit._id, version: hit._version ?? 1, doc: hit._source })}\n`))
          await once(out, 'drain');
        ids.add(hit._id as string);
      }
      after = hits[hits.length - 1]?.sort;
    }
  }
  out.end();
  await once(out, 'finish');
  await client.close();
  return ids.size;
}

async function load(file: string): Promise<{ documents: number; seconds: number; loadSeconds: number }> {
  const config = loadConfig();
  const client = createBackgroundSearchClient(config.elasticsearch.url as string);
  const target = (lang: string) => `${config.elasticsearch.indexPrefix}-baseline-events-${lang}`;
  await client.indices.delete({ index: LANGUAGES.map(target), ignore_unavailable: true });
  const started = performance.now();
  await Promise.all(
    LANGUAGES.map((lang) => client.indices.create({ index: target(lang), ...indexDefinition('event', lang, '-1') })),
  );
  await client.cluster.health({ index: LANGUAGES.map(target), wait_for_status: 'yellow', timeout: '60s' });
  const loadStarted = performance.now();
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  const stats = await client.helpers.bulk<{ lang: string; id: string; version: number; doc: Record<string, unknown> }>({
    datasource: (async function* () {
      for await (const line of lines)
        yield JSON.parse(line) as { lang: string; id: string; version: number; doc: Record<string, unknown> };
    })(),
    onDocument: (row) => [
      { index: { _index: target(row.lang), _id: row.id, version: row.version, version_type: 'external' } },
      row.doc,
    ],
    flushBytes: config.sync.flushBytes,
    concurrency: config.sync.concurrency,
    refreshOnCompletion: false,
  });
  for (const lang of LANGUAGES) {
    await client.indices.putSettings({
      index: target(lang),
      settings: { refresh_interval: config.elasticsearch.refreshInterval },
    });
    await client.indices.refresh({ index: target(lang) });
  }
  const seconds = (performance.now() - started) / 1000;
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  if (stats.failed > 0) throw new Error(`${stats.failed} documents failed in the bulk baseline`);
  await client.indices.delete({ index: LANGUAGES.map(target), ignore_unavailable: true });
  await client.close();
  return { documents: stats.successful, seconds, loadSeconds };
}

async function main(): Promise<void> {
  const file = process.argv[2] as string;
  const records = await dump(file);
  const { documents, seconds, loadSeconds } = await load(file);
  process.stdout.write(
    `${JSON.stringify({ records, documents, seconds, loadSeconds, recordsPerSecond: records / seconds })}\n`,
  );
}

main().catch((err: Error) => {
  console.error(`bench bulk baseline: ${err.stack ?? err.message}`);
  process.exit(1);
});
