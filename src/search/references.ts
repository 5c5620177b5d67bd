import type { Language } from '../../config';
import { ValidationError } from '../errors';
import type { Principal } from '../http/types';
import type { Services } from '../services';
import { mayRead, type Ownership } from '../auth/policy';
import { recordOwnership, showsLink } from '../auth/visibility';
import type { BaseDoc, RecordStore, StoredRecord } from '../storage/recordStore';
import type { EventDoc } from '../storage/stores';
import { listCacheOf } from './listCache';

/**
 * Category or tag references of a filter (IDs or slugs) as IDs; any unknown one is a 400
 * naming `param` (CONTRACT part 7). Slugs are looked up in `lang` first, then in any language.
 */
export async function resolveTermRefs(
  services: Services,
  kind: 'category' | 'tag',
  refs: (number | string)[],
  lang: Language,
  param: string,
): Promise<number[]> {
  const store = kind === 'category' ? services.stores.categories : services.stores.tags;
  // Terms named by list filters are few and change rarely: known ones are remembered briefly.
  const cache = listCacheOf(services);
  const idKey = (id: number) => `term-id:${kind}:${id}`;
  const slugKey = (slug: string) => `term-slug:${kind}:${lang}:${slug}`;
  const numeric = refs.filter((ref): ref is number => typeof ref === 'number');
  const slugs = refs.filter((ref): ref is string => typeof ref === 'string');
  const uncachedIds = numeric.filter((id) => cache.get(idKey(id)) === undefined);
  const [found, bySlug] = await Promise.all([
    store.getMany(uncachedIds),
    Promise.all(
      slugs.map(async (slug) => {
        const cached = cache.get<number>(slugKey(slug));
        return [slug, cached ?? (await store.getBySlug(slug, lang))?.id] as const;
      }),
    ),
  ]);
  for (const id of found.keys()) cache.set(idKey(id), true);
  for (const [slug, id] of bySlug) if (id !== undefined) cache.set(slugKey(slug), id);
  const unknown = [
    ...uncachedIds.filter((id) => !found.has(id)),
    ...bySlug.filter(([, id]) => id === undefined).map(([slug]) => slug),
  ];
  if (unknown.length > 0) throw new ValidationError({ [param]: `Unknown ${kind}: ${unknown.join(', ')}` });
  return [...new Set([...numeric, ...bySlug.map(([, id]) => id as number)])];
}

const CATEGORY_CHILDREN = 'category-children';

/**
 * The categories `ids` and all their descendants: filtering by a category includes its children,
 * as WordPress's taxonomy queries do. The hierarchy is remembered like the term lookups.
 */
export async function withDescendantCategories(services: Services, ids: number[]): Promise<number[]> {
  const cache = listCacheOf(services);
  // The read itself is remembered, so the requests arriving while it runs share it.
  let reading = cache.get<Promise<Map<number, number[]>>>(CATEGORY_CHILDREN);
  if (!reading) {
    reading = services.stores.categories.sharedFieldOfAll('parent').then((parents) => {
      const children = new Map<number, number[]>();
      for (const [id, parent] of parents) if (parent) children.set(parent, [...(children.get(parent) ?? []), id]);
      return children;
    });
    cache.set(CATEGORY_CHILDREN, reading);
    reading.catch(() => cache.delete(CATEGORY_CHILDREN));
  }
  const children = await reading;
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
  const owners = await linkOwnerships(services, kind, ids);
  return ids.filter((_, i) => {
    const ownership = owners[i];
    return ownership !== null && ownership !== undefined && showsLink(principal, ownership);
  });
}

/**
 * Status and author of each of `ids` (null: no such record), remembered like the term lookups;
 * the IDs not remembered are read at once, and requests arriving meanwhile share that read.
 */
async function linkOwnerships(
  services: Services,
  kind: 'venue' | 'organizer',
  ids: number[],
): Promise<(Ownership | null)[]> {
  const cache = listCacheOf(services);
  const key = (id: number) => `link-owner:${kind}:${id}`;
  const lookups = new Map<number, Promise<Ownership | null>>();
  const unknown = ids.filter((id) => {
    const known = cache.get<Promise<Ownership | null>>(key(id));
    if (known) lookups.set(id, known);
    return !known;
  });
  if (unknown.length > 0) {
    const store: Pick<RecordStore<BaseDoc>, 'getMany'> = kind === 'venue'
      ? services.stores.venues
      : services.stores.organizers;
    const reading = store.getMany(unknown);
    for (const id of new Set(unknown)) {
      const lookup = reading.then((found) => {
        const record = found.get(id);
        return record ? recordOwnership(record) : null;
      });
      lookup.catch(() => cache.delete(key(id)));
      cache.set(key(id), lookup);
      lookups.set(id, lookup);
    }
  }
  return Promise.all(ids.map((id) => lookups.get(id)!));
}

/** IDs that must all be existing records of `kind`, else a 400 naming `param`. */
export async function requireExisting(
  services: Services,
  kind: 'category' | 'tag',
  ids: number[],
  param: string,
): Promise<void> {
  const store = kind === 'category' ? services.stores.categories : services.stores.tags;
  const found = await store.getMany(ids);
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length > 0) throw new ValidationError({ [param]: `Unknown ${kind}: ${unknown.join(', ')}` });
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
