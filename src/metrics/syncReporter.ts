import type { RecordKind } from '../domain/kinds';

/** What the sync worker tells about one queue entry it handled. */
export interface SyncReport {
  kind: RecordKind;
  /** When the entry last became dirty (the write); absent for entries claimed without it. */
  dirtyAt?: Date;
}

/** How the sync worker reports its progress (src/metrics/registry.ts turns it into metrics). */
export interface SyncReporter {
  /** Entries whose index documents were written and checkpointed. */
  indexed(entries: readonly SyncReport[]): void;
  /** Entries whose bulk indexing failed; they are released for a retry. */
  failed(entries: readonly SyncReport[]): void;
}
