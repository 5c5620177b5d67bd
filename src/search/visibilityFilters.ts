import type { estypes } from '@elastic/elasticsearch';
import { ALL_STATUSES, isEditor, listScope } from '../domain/policy';
import { ValidationError } from '../domain/errors';
import type { Principal } from '../domain/principal';
import type { Status } from '../domain/status';
import { boolQuery } from './fullText';

export const STATUSES: readonly Status[] = ALL_STATUSES;

/** What the `status` parameter of a list says about who sees what. */
export const STATUS_PARAM_DESCRIPTION =
  'Post statuses to list. Anonymous callers: publish only. Authors and contributors: publish, and their own records in any ' +
  'other status. Editors and administrators: any. Default: every status the caller may read except trash';

/**
 * The status filter of a list for `principal` (CONTRACT part 6, src/domain/policy.ts listScope):
 * anonymous callers list `publish` only; authors and contributors also their own records of other
 * statuses; editors and above everything. `trash` only when asked for. A requested status the
 * caller may not read is a 400 naming `status`.
 */
export function statusFilter(principal: Principal, requested: Status[] | undefined): estypes.QueryDslQueryContainer {
  const scope = listScope(principal, requested);
  if (scope.forbidden.length > 0) {
    throw new ValidationError({ status: `You may not list records with status ${scope.forbidden.join(', ')}.` });
  }
  if (scope.own.length === 0) return { terms: { status: scope.everyone } };
  const should: estypes.QueryDslQueryContainer[] = [];
  if (scope.everyone.length > 0) should.push({ terms: { status: scope.everyone } });
  should.push(boolQuery({ filter: [{ terms: { status: scope.own } }, { term: { author: principal.userId } }] }));
  return boolQuery({ minimum_should_match: 1 }, should);
}

/**
 * The events whose venue, organizer and location `principal` may match on (venue, organizer and
 * geo filters, distances): a protected event's are blanked for everyone but editors and its
 * author (CONTRACT part 6), so filtering on them must not reveal them either. Null: no limit.
 */
export function shownLinksFilter(principal: Principal): estypes.QueryDslQueryContainer | null {
  if (isEditor(principal)) return null;
  const should: estypes.QueryDslQueryContainer[] = [{ term: { password_protected: false } }];
  if (principal.userId > 0) should.push({ term: { author: principal.userId } });
  return boolQuery({ minimum_should_match: 1 }, should);
}
