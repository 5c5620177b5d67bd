import { expect } from 'chai';
import type { Role } from '../../src/domain/principal';
import { request, ROOT, type ApiResponse, type RequestOptions } from './api';
import { testWorld } from './harness';
import { daysFromNow } from './lists';
import { expectError } from './errors';

/** Who calls, in the access matrices: anonymous or one of the four roles. */
export type CallerRole = 'anonymous' | Role;
export const CALLER_ROLES: CallerRole[] = ['anonymous', 'contributor', 'author', 'editor', 'administrator'];
export const KEYED_ROLES: Role[] = ['contributor', 'author', 'editor', 'administrator'];
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type Status = (typeof STATUSES)[number];
export type PostPlural = 'events' | 'venues' | 'organizers';
export const POST_KINDS: { plural: PostPlural; kind: 'event' | 'venue' | 'organizer'; name: string }[] = [
  { plural: 'events', kind: 'event', name: 'title' },
  { plural: 'venues', kind: 'venue', name: 'venue' },
  { plural: 'organizers', kind: 'organizer', name: 'organizer' },
];

export interface Caller {
  role: CallerRole;
  /** The API key; undefined for anonymous callers. */
  key?: string;
  /** The user the key writes as (0: anonymous). */
  userId: number;
}

export interface Callers extends Record<CallerRole, Caller> {
  /** An author none of the matrices call as: the owner of "other" records. */
  stranger: Caller;
}

let callersOnce: Promise<Callers> | undefined;

/** One key per role (and the stranger's), created once per test run. */
export function callers(): Promise<Callers> {
  callersOnce ??= (async () => {
    const keys = testWorld().services.apiKeys;
    const make = async (role: Role, name: string): Promise<Caller> => {
      const { key, record } = await keys.create(name, role);
      return { role, key, userId: record.userId };
    };
    const [contributor, author, editor, administrator, strangerAuthor] = await Promise.all([
      make('contributor', 'access contributor'),
      make('author', 'access author'),
      make('editor', 'access editor'),
      make('administrator', 'access administrator'),
      make('author', 'access stranger'),
    ]);
    return {
      anonymous: { role: 'anonymous', userId: 0 },
      contributor,
      author,
      editor,
      administrator,
      stranger: strangerAuthor,
    };
  })();
  return callersOnce;
}

/** Request options sending `caller`'s key (none for anonymous callers). */
export const as = (caller: Caller, headers?: Record<string, string>): RequestOptions => ({
  ...(caller.key ? { key: caller.key } : {}),
  ...(headers ? { headers } : {}),
});

export const call = (method: string, path: string, caller: Caller, body?: unknown): Promise<ApiResponse> =>
  request(method, `${ROOT}${path}`, body, as(caller));

/** The minimal valid create body of a post kind, named `name`. */
export function minimalBody(plural: PostPlural, name: string): Record<string, unknown> {
  if (plural === 'events')
    return { title: name, start_date: daysFromNow(7, '10:00:00'), end_date: daysFromNow(7, '12:00:00') };
  return plural === 'venues' ? { venue: name } : { organizer: name };
}

/**
 * A record of `plural` owned by `owner` in `status`, written by the test administrator (who may
 * set any author and status); `trash` is reached by deleting it.
 */
export async function recordOf(
  plural: PostPlural,
  name: string,
  owner: number,
  status: Status,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<any> {
  const body = { ...minimalBody(plural, name), author: owner, status: status === 'trash' ? 'draft' : status, ...extra };
  const created = await request('POST', `${ROOT}/${plural}`, body, { key: true, headers });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  if (status !== 'trash') return created.body;
  const trashed = await request('DELETE', `${ROOT}/${plural}/${created.body.id}`, undefined, { key: true, headers });
  expect(trashed.status, JSON.stringify(trashed.body)).to.equal(200);
  return trashed.body;
}

/** The record as stored now, read by the administrator. */
export async function adminRead(plural: string, id: number): Promise<ApiResponse> {
  return request('GET', `${ROOT}/${plural}/${id}`, undefined, { key: true });
}

/** 401 for a missing, unknown or revoked key, with the Bearer challenge. */
export function expectUnauthorized(res: ApiResponse, where = ''): void {
  expectError(res, 401, 'rest_unauthorized', where);
  expect(res.headers.get('www-authenticate'), where).to.match(/^Bearer/);
}

/** No response ever carries an event password or its hash. */
export function expectNoSecrets(body: unknown, where = ''): void {
  const text = JSON.stringify(body ?? null);
  expect(text, where).not.to.match(/"password(Hash)?"\s*:/);
}
