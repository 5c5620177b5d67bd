import { expect } from 'chai';
import { api, type ApiResponse } from './api';
import { testWorld } from './harness';

/** Every page of a cursor walk of `path` (which has its filters), following next_cursor. */
export async function walk(
  path: string,
  options: Parameters<typeof api.get>[1] = {},
  between?: (page: number) => Promise<void>,
): Promise<{ ids: number[]; pages: ApiResponse[]; urls: string[] }> {
  const plural = path.split('?')[0]!.slice(1);
  const ids: number[] = [];
  const pages: ApiResponse[] = [];
  const urls: string[] = [];
  let cursor = '';
  for (let page = 1; ; page++) {
    const sep = path.includes('?') ? '&' : '?';
    urls.push(`${path}${sep}cursor=${encodeURIComponent(cursor)}`);
    const res = await api.get(urls.at(-1)!, options);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    pages.push(res);
    ids.push(...(res.body[plural] as { id: number }[]).map((record) => record.id));
    if (res.body.next_cursor === null) return { ids, pages, urls };
    cursor = res.body.next_cursor as string;
    await between?.(page);
  }
}

/** `GET {path}` of an export, its NDJSON lines parsed. */
export async function exportOf(
  path: string,
  key: string | true = true,
): Promise<{ status: number; type: string | null; records: any[]; since: string | null }> {
  const { baseUrl, adminKey } = testWorld();
  const res = await fetch(`${baseUrl}/calendar/events/v1${path}`, {
    headers: { Authorization: `Bearer ${key === true ? adminKey : key}` },
  });
  const text = await res.text();
  const records =
    res.status === 200
      ? text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    records,
    since: res.headers.get('x-changes-since'),
  };
}
