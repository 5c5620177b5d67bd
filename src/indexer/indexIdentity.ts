/**
 * The search indexes belong to the database they were built from: each index carries the
 * database's identity in its mapping (`_meta.instance`, src/storage/instanceIdentity.ts). The API,
 * the worker and the ops scripts compare them before they use the indexes, and rebuild the kinds
 * whose indexes came from another database (the zero-downtime reindex of ./reindex.ts), so a list
 * never serves records a fresh database does not have, nor misses new ones that reuse their IDs.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@elastic/elasticsearch';
import { LANGUAGES } from '../../config';
import { PLURAL, RECORD_KINDS, type RecordKind } from '../domain/kinds';
import { createBackgroundSearchClient } from '../search/client';
import { ensureSearchIndexes } from '../search/ensureIndexes';
import { aliasName } from '../search/indexNames';
import { TARGET_HEARTBEAT_MS, TARGET_STALE_MS } from './reindexTargets';
import type { Services } from '../services/container';
import { leaseCollection, releaseLeases, takeLease } from '../storage/leases';
import { ReindexBusy } from './opsError';
import { reindex } from './reindex/reindex';

/** `unchanged`: every index belongs; `stamped`: indexes without an identity were given this one; `rebuilt`: this process rebuilt some; `waited`: another process did. */
export type IndexIdentityOutcome = 'unchanged' | 'stamped' | 'rebuilt' | 'waited';

/** How often a process that waits for another's rebuild looks again. */
const WAIT_POLL_MS = 1_000;

interface Identities {
  /** Kinds whose live index carries another database's identity. */
  foreign: RecordKind[];
  /** The identity found on the first of them. */
  foundInstance?: string;
  /** Live indexes without an identity (built before indexes had one). */
  unstamped: string[];
}

async function readIdentities(client: Client, services: Services): Promise<Identities> {
  const kindOfAlias = new Map<string, RecordKind>();
  for (const kind of RECORD_KINDS)
    for (const lang of LANGUAGES) kindOfAlias.set(aliasName(services.config, kind, lang), kind);
  const indexes = await client.indices.get({
    index: [...kindOfAlias.keys()],
    ignore_unavailable: true,
    allow_no_indices: true,
    features: ['aliases', 'mappings'],
  });
  const foreign = new Set<RecordKind>();
  const found: Identities = { foreign: [], unstamped: [] };
  for (const [index, state] of Object.entries(indexes)) {
    const kinds = Object.keys(state.aliases ?? {}).flatMap((alias) => kindOfAlias.get(alias) ?? []);
    if (kinds.length === 0) continue;
    const instance = state.mappings?._meta?.instance as string | undefined;
    if (instance === undefined) found.unstamped.push(index);
    else if (instance !== services.instanceId) {
      found.foundInstance ??= instance;
      for (const kind of kinds) foreign.add(kind);
    }
  }
  found.foreign = RECORD_KINDS.filter((kind) => foreign.has(kind));
  return found;
}

/**
 * Makes the live search indexes belong to this database: indexes without an identity are given
 * it (an upgrade: nothing is rebuilt); kinds whose indexes carry another one are rebuilt from the
 * database, by one process at a time (a lease in `locks`): the others wait until it is done.
 */
export async function matchIndexesToDatabase(
  services: Services,
  signal?: AbortSignal,
  waitPollMs = WAIT_POLL_MS,
): Promise<IndexIdentityOutcome> {
  const client = createBackgroundSearchClient(services.config.elasticsearch.url as string);
  const locks = leaseCollection(services.db);
  const leaseId = `index-identity:${services.config.elasticsearch.indexPrefix}`;
  const holder = randomBytes(6).toString('hex');
  let outcome: IndexIdentityOutcome = 'unchanged';
  try {
    for (;;) {
      signal?.throwIfAborted();
      const identities = await readIdentities(client, services);
      if (identities.unstamped.length > 0) {
        await client.indices.putMapping({ index: identities.unstamped, _meta: { instance: services.instanceId } });
        if (outcome === 'unchanged') outcome = 'stamped';
      }
      if (identities.foreign.length === 0) return outcome;
      if (!(await takeLease(locks, leaseId, holder, TARGET_STALE_MS))) {
        outcome = 'waited';
        await sleep(waitPollMs, undefined, { signal });
        continue;
      }
      const renew = setInterval(() => {
        const until = new Date(Date.now() + TARGET_STALE_MS);
        void locks.updateOne({ _id: leaseId, holder }, { $set: { until } }).catch(() => undefined);
      }, TARGET_HEARTBEAT_MS).unref();
      try {
        // Read again under the lease: the process that held it may have rebuilt them meanwhile.
        const { foreign, foundInstance } = await readIdentities(client, services);
        if (foreign.length === 0) continue;
        services.log.warn(
          { kinds: foreign, indexInstance: foundInstance, databaseInstance: services.instanceId },
          `the search indexes of ${foreign.map((kind) => PLURAL[kind]).join(', ')} were built from another database: rebuilding them from this one`,
        );
        await reindex(services, { kinds: foreign, signal });
        outcome = 'rebuilt';
      } catch (err) {
        // `npm run reindex` is running: it rebuilds them from this database.
        if (!(err instanceof ReindexBusy)) throw err;
        await sleep(waitPollMs, undefined, { signal });
      } finally {
        clearInterval(renew);
        await releaseLeases(locks, [leaseId], holder).catch(() => undefined);
      }
    }
  } finally {
    await client.close();
  }
}

/** Before the API, a worker or an ops script uses the indexes: they belong to the database and exist. */
export async function prepareSearchIndexes(services: Services, signal?: AbortSignal): Promise<IndexIdentityOutcome> {
  const outcome = await matchIndexesToDatabase(services, signal);
  await ensureSearchIndexes(services, signal);
  return outcome;
}
