import type { Services } from '../container';
import { inLanguage } from '../../storage/storedRecord';
import type { Caller } from './eventList';
import { recordsOf } from './postList';
import { aliasName } from '../../search/indexNames';
import { withoutWindow, type ListQuery } from './listing';
import { requireEvent, requireTermIds } from '../commands/references';
import { buildTermSearch, type TermOrderBy } from '../../search/termQuery';
import { PLURAL, type TermKind } from '../../domain/kinds';

/** The validated parameters of `GET /categories` and `GET /tags` (interface.md 4.5, 4.6). */
export interface TermListInput {
  page: number;
  per_page: number;
  search?: string;
  exclude?: number[];
  include?: number[];
  order: 'asc' | 'desc';
  orderby: TermOrderBy;
  hide_empty: boolean;
  parent?: number;
  post?: number;
  event?: number;
  slug?: string[];
}

/** The search of a category or tag list. */
export async function termListQuery(
  services: Services,
  kind: TermKind,
  input: TermListInput,
  caller: Caller,
): Promise<ListQuery> {
  const eventId = input.event ?? input.post;
  const eventParam = input.event !== undefined ? 'event' : 'post';
  const [event] = await Promise.all([
    eventId !== undefined ? requireEvent(services, eventId, eventParam, caller.principal) : undefined,
    input.include ? requireTermIds(services, kind, input.include, 'include') : undefined,
    input.parent ? requireTermIds(services, 'category', [input.parent], 'parent') : undefined,
  ]);
  const ids = event ? (inLanguage(event, event.originalLang)[PLURAL[kind]] ?? []) : undefined;
  const request = withoutWindow(
    buildTermSearch(aliasName(services.config, kind, caller.lang), {
      search: input.search?.trim() || undefined,
      include: input.include?.length ? input.include : undefined,
      exclude: input.exclude,
      ids,
      hideEmpty: input.hide_empty,
      parent: kind === 'category' ? input.parent : undefined,
      slugs: input.slug,
      orderby: input.orderby,
      order: input.order,
      from: 0,
      size: 0,
    }),
  );
  return { request, present: async (hits) => recordsOf(hits) };
}
