import type { Config } from '../../../config';
import { ExpiringCache } from '../../lib/expiringCache';
import type { SyncQueue } from '../../storage/syncQueue';

/** How long a cached figure may be served; lists are eventually consistent by about as much. */
export const LIST_CACHE_TTL_MS = 1_000;
/** Keys come from requests (slugs, IDs): beyond this many the oldest are forgotten. */
const LIST_CACHE_MAX_ENTRIES = 10_000;

const caches = new WeakMap<SyncQueue, Map<string, ExpiringCache>>();

/**
 * Per-process memory of slowly changing figures that requests look up on every call (which term
 * IDs and slugs exist, term counts in the index), one cache per time limit and size bound. An entry lives at
 * most `ttlMs`, and everything is dropped as soon as this process writes or indexes anything (the
 * sync queue's `dirty` and `indexed` events), and again once what it indexed is searchable (a
 * refresh interval later: what was read in between may predate it): a process sees its own
 * changes at once, others' within the time limit. Keyed by the services' sync queue, shared by
 * every copy of them.
 */
export function processCacheOf(
  services: { sync: SyncQueue; config: Config },
  ttlMs: number,
  maxEntries = LIST_CACHE_MAX_ENTRIES,
): ExpiringCache {
  let byBounds = caches.get(services.sync);
  if (!byBounds) {
    const created = new Map<string, ExpiringCache>();
    const clear = () => created.forEach((cache) => cache.clear());
    services.sync.on('dirty', clear);
    services.sync.on('indexed', () => {
      clear();
      setTimeout(clear, services.config.elasticsearch.refreshIntervalMs).unref();
    });
    caches.set(services.sync, created);
    byBounds = created;
  }
  const bounds = `${ttlMs}/${maxEntries}`;
  let cache = byBounds.get(bounds);
  if (!cache) byBounds.set(bounds, (cache = new ExpiringCache(ttlMs, maxEntries)));
  return cache;
}

/** The cache of figures lists show (kept LIST_CACHE_TTL_MS). */
export function listCacheOf(services: { sync: SyncQueue; config: Config }): ExpiringCache {
  return processCacheOf(services, LIST_CACHE_TTL_MS);
}
