import { expect } from 'chai';
import { DateTime } from 'luxon';
import { waitForSearchIndexes } from '../../src/search/ensureIndexes';
import { waitUntilSearchable } from '../../src/services/waitForIndex';
import { api, request, type ApiResponse, type RequestOptions } from './api';
import { testWorld } from './harness';
import type { RecordKind } from '../../src/domain/kinds';

const KIND_OF: Record<string, RecordKind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
};

/** Waits for this run's search indexes (created in the background by the worker). */
export async function searchReady(): Promise<void> {
  await waitForSearchIndexes(testWorld().services);
}

/**
 * A write sent with `Prefer: wait-for-index`; if the route does not honour it, waits here for the
 * record to be searchable, so the next list sees it.
 */
export async function writeIndexed(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  options: RequestOptions = { key: true },
): Promise<ApiResponse> {
  const res = await request(method, `/calendar/events/v1${path}`, body, {
    ...options,
    headers: { ...options.headers, Prefer: 'wait-for-index' },
  });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
  if (res.headers.get('preference-applied') !== 'wait-for-index') {
    const kind = KIND_OF[path.split('/')[1] as string] as RecordKind;
    const id = (res.body as { id: number }).id;
    expect(await waitUntilSearchable(testWorld().services, kind, id), `${kind} ${id} searchable`).to.equal(true);
  }
  return res;
}

/** IDs listed by `GET path` (the list key is the collection name). */
export async function listIds(path: string, options?: RequestOptions): Promise<number[]> {
  const res = await api.get(path, options);
  expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).to.equal(200);
  const key = path.split('?')[0]!.split('/')[1] as string;
  return (res.body[key] as { id: number }[]).map((record) => record.id);
}

/** Local wall-clock text `days` days from now at `time` (HH:mm:ss). */
export function daysFromNow(days: number, time = '20:00:00', zone = 'UTC'): string {
  return `${DateTime.now().setZone(zone).plus({ days }).toFormat('yyyy-MM-dd')} ${time}`;
}

let counter = 0;
/** A unique word so that tests' records never collide (slugs, searches). */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${(++counter).toString(36)}`;
}

/**
 * Waits until the sync backlog is empty and the indexes refreshed: every write so far is listed.
 * The backlog is the whole world's, which a loaded CI machine (the other suites and the bench's
 * smoke run beside them) once took past 15 s to drain: the default stays inside a hook's 30 s.
 */
export async function settle(timeoutMs = 25_000): Promise<void> {
  const { services, config } = testWorld();
  const deadline = Date.now() + timeoutMs;
  while ((await services.sync.entries.countDocuments({ pending: true })) > 0) {
    if (Date.now() > deadline) throw new Error(`sync backlog not empty after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await services.search.indices.refresh({ index: `${config.elasticsearch.indexPrefix}-*` });
}

/** Creates a record (no waiting) and returns its body. */
export async function create(path: string, body: Record<string, unknown>, lang?: string): Promise<any> {
  const res = await request('POST', `${lang ? `/${lang}` : ''}/calendar/events/v1${path}`, body, { key: true });
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).to.equal(201);
  return res.body;
}
