import type { Collection, Db } from 'mongodb';
import type { Language } from '../../config';
import type { BulkOperation } from './bulkIndexer';
import type { RecordKind } from '../domain/kinds';

/**
 * An index being rebuilt by `npm run reindex`, registered so the sync worker writes every change
 * to it as well as to the live alias while the rebuild runs (no write is lost at the swap).
 * `_id` is the write alias of the new index (writes go through an alias so `require_alias`
 * still refuses to auto-create a missing index).
 */
export interface ReindexTarget {
  _id: string;
  /** The live alias whose writes are mirrored. */
  alias: string;
  /** The concrete index being built. */
  index: string;
  kind: RecordKind;
  lang: Language;
  /** The reindex run that owns the registration. */
  runId: string;
  startedAt: Date;
  heartbeatAt: Date;
}

/** The reindex refreshes its heartbeat this often... */
export const TARGET_HEARTBEAT_MS = 5_000;
/** ...and workers ignore a registration whose heartbeat is older (a crashed or stalled run). */
export const TARGET_STALE_MS = 60_000;

export function reindexTargets(db: Db): Collection<ReindexTarget> {
  return db.collection<ReindexTarget>('reindex_targets');
}

/** Live alias → write aliases of the indexes being rebuilt behind it (fresh registrations only). */
export type ActiveTargets = ReadonlyMap<string, string[]>;

/** Read for every batch, never cached: a rebuild may start between two batches. */
export async function activeReindexTargets(db: Db, now = Date.now()): Promise<ActiveTargets> {
  const fresh = await reindexTargets(db)
    .find({ heartbeatAt: { $gt: new Date(now - TARGET_STALE_MS) } })
    .toArray();
  const byAlias = new Map<string, string[]>();
  for (const target of fresh) byAlias.set(target.alias, [...(byAlias.get(target.alias) ?? []), target._id]);
  return byAlias;
}

/** Each operation, plus a copy for every index being rebuilt behind its alias. */
export function withReindexTargets(operations: BulkOperation[], targets: ActiveTargets): BulkOperation[] {
  if (targets.size === 0) return operations;
  return operations.flatMap((op) => [op, ...(targets.get(op.index) ?? []).map((index) => ({ ...op, index }))]);
}
