import type { estypes } from '@elastic/elasticsearch';
import { DependencyUnavailableError } from '../../domain/errors';
import { seesHiddenEvents } from '../../domain/policy';
import { giveUpAfter } from '../../search/client';
import { aliasName } from '../../search/indexNames';
import { SUGGEST_KIND_OF, SUGGESTED_FIELD, suggestSearch, type SuggestKind } from '../../search/suggestQuery';
import { statusFilter } from '../../search/visibilityFilters';
import type { Services } from '../container';
import type { Caller } from './eventList';
import { listCacheOf } from './listCache';
import { requestTimeoutOf } from './listing';

export const DEFAULT_SUGGESTIONS = 8;
export const MAX_SUGGESTIONS = 20;

/**
 * Events are suggested until this long after they end: the searches then stay the same for that
 * long, and Elasticsearch answers them from its request cache until an index they read changes.
 */
const ENDED_EVENTS_FORGOTTEN_MS = 60_000;

export interface SuggestInput {
  search: string;
  kinds?: SuggestKind[];
  per_page: number;
}

export interface Suggestion {
  kind: SuggestKind;
  id: number;
  text: string;
  rest_url: string;
}

interface SuggestHit {
  id: number;
  title?: string;
  name?: string;
  record?: { rest_url?: string };
}

/**
 * What a kind's suggestions are taken from, as the caller's lists show them: statuses the caller
 * may list (no draft for anonymous callers, never trash), events hidden from listings only to
 * editors, and only events not over (for a minute more: ENDED_EVENTS_FORGOTTEN_MS; their pages stay
 * readable, lists with dates find them).
 */
function visibleOf(kind: SuggestKind, caller: Caller, now: Date): estypes.QueryDslQueryContainer[] {
  if (kind === 'categories' || kind === 'tags') return [];
  const visible = [statusFilter(caller.principal, undefined)];
  if (kind !== 'events') return visible;
  if (!seesHiddenEvents(caller.principal)) visible.push({ term: { hide_from_listings: false } });
  const endedBefore = Math.floor(now.getTime() / ENDED_EVENTS_FORGOTTEN_MS) * ENDED_EVENTS_FORGOTTEN_MS;
  visible.push({ range: { end_utc: { gte: new Date(endedBefore).toISOString() } } });
  return visible;
}

/** The msearch of `GET /suggest`: one search per kind asked for, each of the best `size`. */
export function suggestRequests(
  services: Pick<Services, 'config'>,
  input: SuggestInput,
  caller: Caller,
  now = new Date(),
): { kinds: SuggestKind[]; searches: estypes.MsearchRequestItem[] } {
  const kinds = input.kinds?.length ? [...new Set(input.kinds)] : (Object.keys(SUGGEST_KIND_OF) as SuggestKind[]);
  const searches = kinds.flatMap((kind) => {
    const index = aliasName(services.config as Services['config'], SUGGEST_KIND_OF[kind], caller.lang);
    const { index: _index, ...body } = suggestSearch(
      index,
      kind,
      input.search,
      visibleOf(kind, caller, now),
      input.per_page,
    );
    return [{ index, request_cache: true }, body as estypes.MsearchMultisearchBody];
  });
  return { kinds, searches };
}

/**
 * The best `per_page` suggestions over the kinds asked for, in the request language: by rank (the
 * same constant scores for every kind), then text, then the order of `kinds`. Kept like the
 * list's lookups (listCache.ts), by everything the search is made of but the time: the letters
 * typed are asked by many visitors at once.
 */
export function suggest(services: Services, input: SuggestInput, caller: Caller): Promise<Suggestion[]> {
  // What the search is made of but the time: what visibleOf reads of the caller, and the input.
  const visible = `${JSON.stringify(statusFilter(caller.principal, undefined))}:${seesHiddenEvents(caller.principal)}`;
  const key = `${caller.lang}:${input.kinds?.join(',') ?? '*'}:${input.per_page}:${visible}:${input.search}`;
  return listCacheOf(services).shared(key, () => searchSuggestions(services, input, caller));
}

async function searchSuggestions(services: Services, input: SuggestInput, caller: Caller): Promise<Suggestion[]> {
  const { kinds, searches } = suggestRequests(services, input, caller);
  const response = await services.search
    .msearch<SuggestHit>({ searches }, giveUpAfter(requestTimeoutOf(services)))
    .catch((err: unknown) => {
      throw new DependencyUnavailableError('search', err);
    });
  const ranked: { score: number; order: number; suggestion: Suggestion }[] = [];
  response.responses.forEach((answer, order) => {
    // A kind whose index is missing or failing is an outage, as for lists.
    if ('error' in answer) throw new DependencyUnavailableError('search', answer.error);
    const kind = kinds[order]!;
    for (const hit of answer.hits.hits) {
      const source = hit._source as SuggestHit;
      const suggestion = {
        kind,
        id: source.id,
        text: String(source[SUGGESTED_FIELD[kind]] ?? ''),
        rest_url: source.record?.rest_url ?? '',
      };
      ranked.push({ score: hit._score ?? 0, order, suggestion });
    }
  });
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.suggestion.text.localeCompare(b.suggestion.text, caller.lang, { sensitivity: 'base' }) ||
      a.order - b.order ||
      a.suggestion.id - b.suggestion.id,
  );
  return ranked.slice(0, input.per_page).map((entry) => entry.suggestion);
}
