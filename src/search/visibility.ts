import type { estypes } from '@elastic/elasticsearch';
import { ValidationError } from '../errors';
import type { Principal } from '../http/types';
import type { Status } from '../storage/stores';
import { boolQuery } from './fullText';

export const STATUSES: readonly Status[] = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];

/** Editors and administrators see every record; others see published ones (and their own). */
export function seesEverything(principal: Principal): boolean {
  return principal.role === 'administrator' || principal.role === 'editor';
}

/**
 * The status filter of a list for `principal` (CONTRACT part 6): anonymous callers read
 * `publish` only; authors and contributors also their own records of other statuses (trash
 * excepted) when they ask for them; editors and above everything, `trash` only when asked.
 * A requested status the caller may not read is a 400 naming `status`.
 */
export function statusFilter(principal: Principal, requested: Status[] | undefined): estypes.QueryDslQueryContainer {
  if (seesEverything(principal)) {
    return { terms: { status: requested ?? STATUSES.filter((s) => s !== 'trash') } };
  }
  const wanted = requested ?? ['publish'];
  const own = wanted.filter((status) => status !== 'publish');
  const mayReadOwn = principal.role !== null && principal.userId > 0;
  const forbidden = own.filter((status) => !mayReadOwn || status === 'trash');
  if (forbidden.length > 0) {
    throw new ValidationError({ status: `You may not list records with status ${forbidden.join(', ')}.` });
  }
  const should: estypes.QueryDslQueryContainer[] = [];
  if (wanted.includes('publish')) should.push({ term: { status: 'publish' } });
  if (own.length > 0)
    should.push(boolQuery({ filter: [{ terms: { status: own } }, { term: { author: principal.userId } }] }));
  return boolQuery({ minimum_should_match: 1 }, should);
}
