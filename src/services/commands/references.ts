import type { Language } from '../../../config';
import { ValidationError } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import type { Services } from '../container';
import { mayRead } from '../../domain/policy';
import { recordOwnership, showsLink } from '../../storage/recordAccess';
import type { RecordStore } from '../../storage/recordStore';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import type { EventDoc } from '../../storage/stores';
import { OTHER_TERM_KIND, PLURAL, type TermKind } from '../../domain/kinds';
import { listCacheOf } from '../queries/listCache';

/**
 * Category or tag references of a filter (IDs or slugs) as IDs; any unknown one is a 400
 * naming `param` (CONTRACT part 7). Slugs are looked up in `lang` first, then in any language.
 */
export async function resolveTermRefs(
  services: Services,
  kind: TermKind,
  refs: (number | string)[],
  lang: Language,
  param: string,
): Promise<number[]> {
  const store = services.stores[PLURAL[kind]];
  // Terms named by list filters are few and change rarely: known ones are remembered briefly.
  const cache = listCacheOf(services);
  const numeric = refs.filter((ref): ref is number => typeof ref === 'number');
  const slugs = refs.filter((ref): ref is string => typeof ref === 'string');
  const [byId, bySlug] = await Promise.all([
    cache.sharedMany(`term-id:${kind}`, numeric, async (ids) => {
      const found = await store.getMany(ids);
      return new Map([...found.keys()].map((id) => [id, id]));
    }),
    cache.sharedMany(`term-slug:${kind}:${lang}`, slugs, (wanted) => store.idsBySlugsAsWritten(wanted, lang)),
  ]);
  const unknownIds = numeric.filter((_, i) => byId[i] === undefined);
  const unknown = [
    ...(unknownIds.length > 0 ? await termIdProblems(services, kind, unknownIds) : []),
    ...slugs.filter((_, i) => bySlug[i] === undefined).map((slug) => `there is no ${kind} with slug "${slug}"`),
  ];
  if (unknown.length > 0) throw new ValidationError({ [param]: `${unknown.join('; ')}.` });
  return [...new Set([...numeric, ...(bySlug as number[])])];
}

const CATEGORY_CHILDREN = 'category-children';

/**
 * The categories `ids` and all their descendants: filtering by a category includes its children,
 * as WordPress's taxonomy queries do. The hierarchy is remembered like the term lookups.
 */
export async function withDescendantCategories(services: Services, ids: number[]): Promise<number[]> {
  const children = await listCacheOf(services).shared(CATEGORY_CHILDREN, async () => {
    const byChild = await services.stores.categories.sharedFieldOfAll('parent');
    const byParent = new Map<number, number[]>();
    for (const [id, parent] of byChild) if (parent) byParent.set(parent, [...(byParent.get(parent) ?? []), id]);
    return byParent;
  });
  const found = new Set(ids);
  const pending = [...ids];
  while (pending.length > 0) {
    for (const child of children.get(pending.pop()!) ?? []) {
      if (found.has(child)) continue;
      found.add(child);
      pending.push(child);
    }
  }
  return [...found];
}

/**
 * The venues or organizers among `ids` that events show `principal` (readable and not trashed,
 * see showsLink). A filter by any other matches nothing, as one that does not exist: matching the
 * events linked to a draft venue would reveal that the venue exists and where it is used.
 */
export async function shownLinkIds(
  services: Services,
  kind: 'venue' | 'organizer',
  ids: number[] | undefined,
  principal: Principal,
): Promise<number[] | undefined> {
  if (!ids) return ids;
  const store: Pick<RecordStore<BaseDoc>, 'getMany'> = services.stores[PLURAL[kind]];
  // Status and author of each link, remembered like the term lookups.
  const owners = await listCacheOf(services).sharedMany(`link-owner:${kind}`, ids, async (unknown) => {
    const found = await store.getMany(unknown);
    return new Map([...found].map(([id, record]) => [id, recordOwnership(record)]));
  });
  return ids.filter((_, i) => {
    const ownership = owners[i];
    return ownership !== undefined && showsLink(principal, ownership);
  });
}

/**
 * IDs that must all be existing terms of `kind`, else a 400 naming `param` that says of each
 * other one whether it is the other kind's ID or no term's.
 */
export async function requireTermIds(services: Services, kind: TermKind, ids: number[], param: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await services.stores[PLURAL[kind]].getMany(ids);
  const missing = [...new Set(ids.filter((id) => !found.has(id)))];
  if (missing.length === 0) return;
  throw new ValidationError({ [param]: `${(await termIdProblems(services, kind, missing)).join('; ')}.` });
}

/** What each of `ids`, no term of `kind`, is instead: the other kind's ID, or no term's. */
async function termIdProblems(services: Services, kind: TermKind, ids: number[]): Promise<string[]> {
  const otherKind = OTHER_TERM_KIND[kind];
  const wrongKind = await services.stores[PLURAL[otherKind]].getMany(ids);
  return ids.map((id) =>
    wrongKind.has(id) ? `${id} is a ${otherKind} ID, not a ${kind} ID` : `there is no ${kind} with ID ${id}`,
  );
}

/**
 * The event with this ID, or a 400 naming `param` (not an event, no such record, or an event
 * `principal` may not read: a filter never reveals that a draft exists).
 */
export async function requireEvent(
  services: Services,
  id: number,
  param: string,
  principal: Principal,
): Promise<StoredRecord<EventDoc>> {
  const event = await services.stores.events.get(id);
  if (!event || !mayRead(principal, recordOwnership(event))) {
    throw new ValidationError({ [param]: `${id} is not an event` });
  }
  return event;
}
