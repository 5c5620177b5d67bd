import { createHash } from 'node:crypto';
import type { estypes } from '@elastic/elasticsearch';
import type { Language } from '../../../config';
import { DependencyUnavailableError, ValidationError } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { giveUpAfter } from '../../search/client';
import { seriesRecordOf } from '../../search/documents';
import { boolQuery } from '../../search/fullText';
import type { SubscriptionDoc } from '../../storage/webhooks/subscriptions';
import type { Services } from '../container';
import { eventListQuery, type Caller, type EventListInput } from '../queries/eventList';
import type { ListQuery } from '../queries/listing';

const ANONYMOUS: Principal = Object.freeze({ keyId: null, userId: 0, role: null });
const DATE_PARAMS = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'];
/** List parameters that page or order a list: a saved search has no use for them. */
export const NOT_FILTERS = ['page', 'per_page', 'orderby', 'order', 'i18n_language'];
/** List parameters that shape its answer, not which events match: a saved search matches events. */
export const ANSWER_SHAPES = ['cursor', 'hide_subsequent_recurrences', 'facets', 'histogram', 'tz', 'geo_grid'];

/** Subscriptions see what an anonymous list shows (CONTRACT part 6), in their own language. */
export const anonymousIn = (lang: Language): Caller => ({ lang, principal: ANONYMOUS });

/**
 * A subscription's filters as list input. Without any date parameter a saved search has no date
 * limit (EXTENSIONS part 18), so the list's default window (now to now + 2 years) becomes the
 * whole range of supported dates. Relative dates (`now`, `+7 days`) are resolved when a change is
 * evaluated, like a list made at that moment.
 */
export function listInputOf(filters: Record<string, unknown>): EventListInput {
  const undated = !DATE_PARAMS.some((name) => filters[name] !== undefined && filters[name] !== '');
  return {
    page: 1,
    per_page: 1,
    geoloc_radius: 25,
    geoloc_unit: 'mi',
    ...filters,
    ...(undated ? { start_date: '0001-01-01', end_date: '9999-12-31' } : {}),
  };
}

/** Checks filters as an anonymous list would (unknown terms, geo pairs, statuses): a 400 names each. */
export async function checkFilters(services: Services, filters: Record<string, unknown>, lang: Language) {
  await eventListQuery(services, listInputOf(filters), anonymousIn(lang));
}

/** What a subscription matches among some events: each record as an anonymous list shows it, and its hash. */
export type Matches = Map<number, { record: Record<string, unknown>; hash: string }>;

/** A list hit's source: the record as lists show it, and whether it is password-protected. */
type ListedSource = { record?: Record<string, unknown>; password_protected?: boolean };

/**
 * What a match is compared by: the hash of what the list shows of the record; of a series, of
 * its record without the occurrence it matched at (its first in the list's order), which moves as
 * occurrences pass and the index window rolls each day, while the series stays as it was.
 */
function hashOf(source: ListedSource): string {
  const record = source.record?.occurrence ? seriesRecordOf(source.record) : source.record;
  return createHash('sha256')
    .update(JSON.stringify({ ...source, record }))
    .digest('base64url');
}

/** Key-sorted JSON: filters sent in another order are the same search. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, v]) => `${JSON.stringify(name)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a subscription's search depends on: its language and its filters. Equal keys, equal matches. */
export const searchKeyOf = (subscription: Pick<SubscriptionDoc, 'language' | 'filters'>): string =>
  `${subscription.language}|${canonical(subscription.filters)}`;

/** Subscriptions grouped by search: each group is evaluated once. */
export function groupBySearch<S extends Pick<SubscriptionDoc, 'language' | 'filters'>>(subscriptions: S[]): S[][] {
  const groups = new Map<string, S[]>();
  for (const subscription of subscriptions) {
    const key = searchKeyOf(subscription);
    const group = groups.get(key);
    if (group) group.push(subscription);
    else groups.set(key, [subscription]);
  }
  return [...groups.values()];
}

/**
 * Runs each distinct search of the subscriptions restricted to `eventIds`, exactly as the list
 * builds it, all in one multi-search: subscriptions with the same language and filters share one
 * search and one presentation of its hits. A search whose filters no longer resolve (a category
 * deleted since) matches nothing; an unavailable index throws (the batch is evaluated again later).
 */
export async function matchSubscriptions(
  services: Services,
  subscriptions: SubscriptionDoc[],
  eventIds: number[],
): Promise<Map<number, Matches>> {
  const groups = groupBySearch(subscriptions);
  const searches: { group: SubscriptionDoc[]; query: ListQuery }[] = [];
  const body: estypes.MsearchRequestItem[] = [];
  // Each search built as its list would be, all at once (term lookups are cached).
  const built = await Promise.all(
    groups.map(([first]) =>
      eventListQuery(services, listInputOf(first!.filters), anonymousIn(first!.language)).catch((err: unknown) => {
        if (!(err instanceof ValidationError)) throw err;
        services.log.warn({ subscription: first!._id, params: err.params }, 'webhooks: filters no longer apply');
        return null;
      }),
    ),
  );
  for (const [i, group] of groups.entries()) {
    const search = built[i];
    if (!search) continue;
    const { index, query, sort, _source } = search.request;
    body.push(
      { index: index as string },
      {
        query: boolQuery({ filter: [{ terms: { id: eventIds } }], must: query ? [query] : [] }),
        sort,
        _source,
        // A series matches when one of its occurrences does: its first one in the list's order.
        collapse: { field: 'series_id' },
        size: eventIds.length,
        track_total_hits: false,
      },
    );
    searches.push({ group, query: search });
  }
  const result = new Map<number, Matches>(subscriptions.map((subscription) => [subscription._id, new Map()]));
  if (searches.length === 0) return result;
  let responses;
  try {
    responses = await services.search.msearch({ searches: body }, giveUpAfter(services.config.elasticsearch.timeoutMs));
  } catch (err) {
    throw new DependencyUnavailableError('search', err);
  }
  await Promise.all(
    searches.map(async ({ group, query }, i) => {
      const response = responses.responses[i]!;
      if ('error' in response) {
        // A search Elasticsearch refuses (filters saved before a check they would fail) matches
        // nothing: it must not hold up the batch, and the other subscriptions' messages with it.
        if (response.status === 400) {
          const ids = group.map((subscription) => subscription._id);
          services.log.warn({ subscriptions: ids, error: response.error }, 'webhooks: filters refused by the search');
          return;
        }
        throw new DependencyUnavailableError('search', response.error);
      }
      const hits = response.hits.hits;
      if (hits.length === 0) return;
      const records = await query.present(hits);
      const matches: Matches = new Map(
        hits.map((hit, n) => [
          Number(records[n]!.id),
          { record: records[n]!, hash: hashOf(hit._source as ListedSource) },
        ]),
      );
      for (const subscription of group) result.set(subscription._id, matches);
    }),
  );
  return result;
}
