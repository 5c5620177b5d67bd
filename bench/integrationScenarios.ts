import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runLoad } from './load/runLoad';
import type { LoadResult, LoadSpec } from './load/spec';
import { inTurn, loadWindow, otherAnswersOf, type MeasureContext } from './measure';
import type { Row } from './report';

/**
 * Issue 30's scenarios, each against the API's own reference request (there is no bare baseline
 * of a cursor or a change feed): a cursor page at depth against the list's first page, a
 * `/changes` page of 1,000 against a 50-event list page (as they are, the page's bytes from a
 * plain Node server, pages from many positions of the feed, then both gzipped), and one export
 * streamed to the end (records/s per second of the stream, and the API's peak RSS meanwhile).
 */
const ROOT = '/calendar/events/v1';
/** Every event, whatever its dates: the default window would leave the past ones out. */
const ALL_DATES = 'start_date=1970-01-01&end_date=9999-12-31';
/** The depth the issue measures at; smaller worlds are walked to 80% of their events. */
const TARGET_DEPTH = 50_000;
const DEPTH_CURSORS = 20;
const LIST_PAGE = `${ROOT}/events?${ALL_DATES}&per_page=50`;
const CHANGES_PAGE = `${ROOT}/changes?per_page=1000`;
const MB = 2 ** 20;
const POSITION_STEP = 20;
/** Fresh change pages in a smoke run: each costs about 25 list pages. */
const SMOKE_FRESH_PAGES = 8;
/**
 * Connections of these scenarios and their references: they compare what one request costs, and
 * the API presents 1,000 changes at once (more connections would measure its queue).
 */
const CONNECTIONS = 2;

export interface IntegrationMeasurement {
  rows: Row[];
  details: Record<string, unknown>;
  /** Cursor page at depth throughput over the first page's. */
  cursorRatio: number | null;
  /** `/changes` page of 1,000 throughput over a 50-event list page's: the page followers at one position share. */
  changesRatio: number | null;
  /** The same for pages of 1,000 from many positions, each assembled afresh (a follower catching up). */
  freshChangesRatio: number | null;
  exportPeakRssMb: number | null;
}

async function getJson(url: string, headers: Record<string, string> = {}): Promise<Record<string, any>> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as Record<string, any>;
}

/** Walks the event list to about `depth` and returns the cursors of the pages there. */
async function cursorsAtDepth(apiUrl: string): Promise<{ depth: number; cursors: string[] }> {
  const first = await getJson(`${apiUrl}${LIST_PAGE}&cursor=`);
  const total = Number(first.total);
  const depth = Math.max(0, Math.min(TARGET_DEPTH, Math.floor(total * 0.8) - DEPTH_CURSORS * 50));
  let cursor = first.next_cursor as string | null;
  let seen = 50;
  const cursors: string[] = [];
  while (cursor && cursors.length < DEPTH_CURSORS) {
    if (seen >= depth) cursors.push(cursor);
    const page = await getJson(`${apiUrl}${LIST_PAGE}&cursor=${encodeURIComponent(cursor)}`);
    cursor = page.next_cursor as string | null;
    seen += 50;
  }
  return { depth, cursors };
}

/**
 * Positions of the change feed every `POSITION_STEP` changes (their tokens) from which a page of
 * `perPage` is full: 1,000, or half the feed in a smaller world. Followers catching up from their
 * own positions: each page is assembled afresh, where row 12 asks for the one kept for the
 * feed's first position.
 */
async function changePositions(apiUrl: string): Promise<{ tokens: string[]; perPage: number }> {
  const tokens: string[] = [];
  let page = await getJson(`${apiUrl}${ROOT}/changes?per_page=${POSITION_STEP}`);
  let total = page.changes.length as number;
  while (page.has_more) {
    tokens.push(page.next_since as string);
    page = await getJson(
      `${apiUrl}${ROOT}/changes?per_page=${POSITION_STEP}&since=${encodeURIComponent(page.next_since)}`,
    );
    total += page.changes.length as number;
  }
  const perPage = Math.min(1000, Math.floor(total / 2));
  return { tokens: tokens.filter((_, k) => total - (k + 1) * POSITION_STEP > perPage), perPage };
}

function comparedRow(scenario: string, api: LoadResult, reference: LoadResult, peak: number | null, note: string): Row {
  const failed = [otherAnswersOf('API', api), otherAnswersOf('reference', reference)].filter(Boolean).join(', ');
  return {
    scenario,
    rps: api.rps,
    p50: api.latency.p50,
    p99: api.latency.p99,
    baselineRps: reference.rps,
    ratio: api.rps / reference.rps,
    peakRssMb: peak,
    notes: `${note}; reference p50/p99 ${reference.latency.p50}/${reference.latency.p99} ms${failed ? `; FAILED: ${failed}` : ''}`,
  };
}

/** A server on 127.0.0.1 answering every request with `body` as JSON, and nothing else. */
async function servingBytes(body: Buffer): Promise<{ url: string; close: () => void }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** Streams one export to its end: lines per second of the stream, and the API's peak RSS. */
async function streamExport(ctx: MeasureContext): Promise<{ records: number; seconds: number; perSecond: number[] }> {
  const started = Date.now();
  const res = await fetch(`${ctx.api.url}${ROOT}/events/export?${ALL_DATES}`, {
    headers: { authorization: `Bearer ${ctx.world.adminKey}` },
  });
  if (res.status !== 200 || !res.body)
    throw new Error(`export answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const perSecond: number[] = [];
  let records = 0;
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const lines = decoder.decode(chunk, { stream: true }).split('\n').length - 1;
    records += lines;
    const second = Math.floor((Date.now() - started) / 1000);
    perSecond[second] = (perSecond[second] ?? 0) + lines;
  }
  return { records, seconds: (Date.now() - started) / 1000, perSecond: Array.from(perSecond, (n) => n ?? 0) };
}

/** What grows with a list's length: scenarios 11 (a cursor page at depth) and 13 (an export to its end). */
export interface DepthMeasurement {
  rows: Row[];
  details: Record<string, unknown>;
  /** Cursor page at depth throughput over the first page's. */
  cursorRatio: number;
  exportPeakRssMb: number;
}

const loadSpec =
  (ctx: MeasureContext) =>
  (paths: string[]): LoadSpec => ({
    url: ctx.api.url,
    connections: CONNECTIONS,
    ...loadWindow(ctx),
    method: 'GET',
    paths,
  });

/** Scenarios 11 and 13 on the world of `ctx`; `suffix` names the world in the rows. */
export async function measureDepth(
  ctx: MeasureContext,
  log: (line: string) => void,
  suffix = '',
): Promise<DepthMeasurement> {
  const spec = loadSpec(ctx);
  const rows: Row[] = [];
  const { depth, cursors } = await cursorsAtDepth(ctx.api.url);
  log(`measuring a cursor page at depth ${depth} (${cursors.length} cursors) against the first page`);
  await ctx.apiRss.take();
  const [firstPage, deep] = await inTurn(
    ctx,
    () => runLoad(spec([LIST_PAGE]), ctx),
    () => runLoad(spec(cursors.map((cursor) => `${LIST_PAGE}&cursor=${encodeURIComponent(cursor)}`)), ctx),
  );
  rows.push(
    comparedRow(
      `11. cursor page at depth ${depth}${suffix}`,
      deep,
      firstPage,
      (await ctx.apiRss.take()) / MB,
      'reference: page 1',
    ),
  );

  log('streaming an export of every event');
  await ctx.apiRss.take();
  const streamed = await streamExport(ctx);
  const exportPeakRssMb = (await ctx.apiRss.take()) / MB;
  const whole = streamed.perSecond.slice(0, -1);
  const rate = streamed.records / streamed.seconds;
  rows.push({
    scenario: `13. GET /events/export (${streamed.records} events)${suffix}`,
    rps: null,
    p50: null,
    p99: null,
    baselineRps: null,
    ratio: null,
    peakRssMb: exportPeakRssMb,
    notes:
      `${Math.round(rate)} events/s over ${streamed.seconds.toFixed(1)} s` +
      (whole.length > 0 ? `; per whole second min ${Math.min(...whole)}, max ${Math.max(...whole)}` : ''),
  });
  return {
    rows,
    details: { cursor: { depth, deep, firstPage }, export: { ...streamed, rate } },
    cursorRatio: deep.rps / firstPage.rps,
    exportPeakRssMb,
  };
}

export async function measureIntegrations(
  ctx: MeasureContext,
  log: (line: string) => void,
): Promise<IntegrationMeasurement> {
  const spec = loadSpec(ctx);
  const depth = await measureDepth(ctx, log);

  /** A 50-event list page and a `/changes` page of 1,000 in turn, both with `headers`; the API's RSS after. */
  const changesAndListPage = async (headers: Record<string, string>) => {
    await ctx.apiRss.take();
    const [listPage, changes] = await inTurn(
      ctx,
      () => runLoad({ ...spec([LIST_PAGE]), headers }, ctx),
      () => runLoad({ ...spec([CHANGES_PAGE]), headers }, ctx),
    );
    return { listPage, changes, rssMb: (await ctx.apiRss.take()) / MB };
  };
  log('measuring a /changes page of 1,000 against a 50-event list page');
  const { listPage, changes, rssMb } = await changesAndListPage({});
  const changesRow = comparedRow('12. GET /changes per_page=1000', changes, listPage, rssMb, 'reference: 50 events');
  // The load generator's share: the same bytes from a server that does nothing else.
  log('the same page from a plain Node server (what reading 1,000 records costs the load generator)');
  const plain = await servingBytes(Buffer.from(await (await fetch(`${ctx.api.url}${CHANGES_PAGE}`)).arrayBuffer()));
  const plainChanges = await runLoad({ ...spec(['/']), url: plain.url }, ctx).finally(plain.close);
  const plainRow = comparedRow(
    '12b. the same bytes, plain Node server',
    plainChanges,
    listPage,
    null,
    'reference: 50 events from the API; the floor of row 12 here',
  );
  log('change pages from many positions of the feed (each assembled afresh)');
  const positions = await changePositions(ctx.api.url);
  const freshPages = positions.tokens.map(
    (token) => `${ROOT}/changes?per_page=${positions.perPage}&since=${encodeURIComponent(token)}`,
  );
  await ctx.apiRss.take();
  const [spreadListPage, spread] = await inTurn(
    ctx,
    () => runLoad(spec([LIST_PAGE]), ctx),
    () =>
      runLoad(
        { ...spec(freshPages), ...(ctx.requests ? { amount: Math.min(ctx.requests, SMOKE_FRESH_PAGES) } : {}) },
        ctx,
      ),
  );
  const spreadRow = comparedRow(
    `12d. GET /changes per_page=${positions.perPage} from ${positions.tokens.length} positions`,
    spread,
    spreadListPage,
    (await ctx.apiRss.take()) / MB,
    'reference: 50 events',
  );
  // As HTTP clients ask by default (fetch, Python's requests): the page is compressed once while kept, lists per request.
  log('the same two, compressed (Accept-Encoding: gzip)');
  const gzipped = await changesAndListPage({ 'accept-encoding': 'gzip' });
  const changesGzipRow = comparedRow(
    '12c. GET /changes per_page=1000, gzip',
    gzipped.changes,
    gzipped.listPage,
    gzipped.rssMb,
    'reference: 50 events, gzip',
  );
  const [cursorRow, exportRow] = depth.rows;
  return {
    rows: [cursorRow!, changesRow, plainRow, spreadRow, changesGzipRow, exportRow!],
    details: {
      ...depth.details,
      changes: {
        changes,
        listPage,
        plainChanges,
        spread,
        changesGzip: gzipped.changes,
        listPageGzip: gzipped.listPage,
      },
    },
    cursorRatio: depth.cursorRatio,
    changesRatio: changes.rps / listPage.rps,
    freshChangesRatio: spread.rps / spreadListPage.rps,
    exportPeakRssMb: depth.exportPeakRssMb,
  };
}
