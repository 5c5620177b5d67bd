import { readFile, stat } from 'node:fs/promises';
import type { MeasureContext } from './measure';
import type { BenchWorld } from './world';

// Writes through the API, and the worker's own timings of the batches that index them.

const ROOT = '/calendar/events/v1';
const DAY_MS = 86_400_000;
const BACKLOG_TIMEOUT_MS = 30 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** `YYYYMMDDTHHMMSSZ`, as RFC 5545 writes a UTC time. */
export const basicUtc = (date: Date) => date.toISOString().replace(/[-:]|\.\d{3}/g, '');
/** `YYYY-MM-DD HH:mm:ss` of a UTC date: a start_date in UTC. */
export const localText = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** Waits for the worker to drain the sync queue, then refreshes: everything written is listed. */
export async function drained(world: BenchWorld): Promise<void> {
  const deadline = Date.now() + BACKLOG_TIMEOUT_MS;
  while ((await world.services.sync.entries.countDocuments({ pending: true })) > 0) {
    if (Date.now() > deadline) throw new Error('the sync backlog did not drain');
    await sleep(100);
  }
  await world.services.search.indices.refresh({ index: `${world.config.elasticsearch.indexPrefix}-*` });
}

/** How long the bench waits for Elasticsearch's merges after a bulk of writes. */
const MERGES_TIMEOUT_MS = 120_000;

/**
 * Once `drained`, until Elasticsearch runs no merge on the world's indexes: the merges that follow
 * a bulk of writes take seconds of CPU on the cores the loads share, and would land in whichever
 * load runs meanwhile (a walk's point in time, opened then, also keeps the segments being merged).
 */
export async function merged(world: BenchWorld): Promise<void> {
  const index = `${world.config.elasticsearch.indexPrefix}-*`;
  const deadline = Date.now() + MERGES_TIMEOUT_MS;
  for (;;) {
    const stats = await world.services.search.indices.stats({ index, metric: 'merge' });
    if ((stats._all.total?.merges?.current ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error('Elasticsearch was still merging after 2 minutes');
    await sleep(500);
  }
}

export async function postEvent(ctx: MeasureContext, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${ctx.api.url}${ROOT}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.world.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /events answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

interface BatchLine {
  msg?: string;
  entries?: number;
  kinds?: Record<string, number>;
  prepared_ms?: number;
  flushed_ms?: number;
  total_ms?: number;
}

/** A batch's timings as the worker logs them (ms): prepared, then indexed with stale ones deleted, then completed. */
export interface BatchTimes {
  prepared: number;
  flushed: number;
  total: number;
}

/** How long the worker may take to log a batch it has completed (a busy machine writes it late). */
const LOG_WAIT_MS = 10_000;

/** The worker's line for a batch of the one event written, logged past `offset` of its log. */
async function loggedBatch(workerLog: string, offset: number): Promise<BatchLine & { total_ms: number }> {
  const deadline = Date.now() + LOG_WAIT_MS;
  for (;;) {
    const batch = (await readFile(workerLog))
      .subarray(offset)
      .toString('utf8')
      .split('\n')
      .slice(0, -1) // the last line may be half written
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as BatchLine)
      .find((line) => line.msg === 'sync: batch done' && line.entries === 1 && line.kinds?.event === 1);
    if (typeof batch?.total_ms === 'number') return batch as BatchLine & { total_ms: number };
    if (Date.now() > deadline) throw new Error('the worker logged no batch of the weekly series');
    await sleep(100);
  }
}

/**
 * Writes two-year weekly series one at a time and reads, from the worker's own log (debug level),
 * how long its batch of that one event took from the claim to indexed and completed: the
 * occurrences presented in three languages, bulk-indexed, stale ones looked for and deleted.
 */
export async function weeklyIndexTimes(ctx: MeasureContext, workerLog: string, count: number): Promise<BatchTimes[]> {
  const times: BatchTimes[] = [];
  for (let n = 0; n < count; n++) {
    await drained(ctx.world);
    const offset = (await stat(workerLog)).size;
    const start = new Date(Date.now() + (2 + n) * DAY_MS);
    start.setUTCHours(18, 0, 0, 0);
    const until = basicUtc(new Date(start.getTime() + 730 * DAY_MS));
    await postEvent(ctx, {
      title: `Weekly bench class ${n}`,
      start_date: localText(start),
      end_date: localText(new Date(start.getTime() + 3_600_000)),
      timezone: 'Europe/Paris',
      recurrence: [`RRULE:FREQ=WEEKLY;UNTIL=${until}`],
    });
    await drained(ctx.world);
    const batch = await loggedBatch(workerLog, offset);
    times.push({ prepared: batch.prepared_ms ?? 0, flushed: batch.flushed_ms ?? 0, total: batch.total_ms });
  }
  return times.sort((a, b) => a.total - b.total);
}
