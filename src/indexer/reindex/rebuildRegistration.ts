import type { Db } from 'mongodb';
import { isDuplicateKey } from '../../storage/mongo';
import { reindexTargets, TARGET_HEARTBEAT_MS, TARGET_STALE_MS, type ReindexTarget } from '../reindexTargets';
import { OpsError } from '../opsError';

/** A heartbeat gap this long means workers may have ignored the registration: no swap then. */
const MAX_SAFE_GAP_MS = TARGET_STALE_MS / 2;

/**
 * The registration of the indexes a reindex run is building, so that the sync worker mirrors
 * every write to them (src/indexer/reindexTargets.ts). Kept alive by a heartbeat; the run checks
 * before swapping that the heartbeat never lapsed long enough for a worker to skip the targets.
 */
export class RebuildRegistration {
  private timer: NodeJS.Timeout | null = null;
  private lastBeat: number;
  private maxGapMs = 0;

  private constructor(
    private readonly db: Db,
    readonly targets: ReindexTarget[],
    started: number,
  ) {
    this.lastBeat = started;
  }

  static async register(
    db: Db,
    targets: Omit<ReindexTarget, 'startedAt' | 'heartbeatAt'>[],
  ): Promise<RebuildRegistration> {
    const now = new Date();
    const full = targets.map((target) => ({ ...target, startedAt: now, heartbeatAt: now }));
    try {
      await reindexTargets(db).insertMany(full);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await reindexTargets(db).deleteMany({ runId: { $in: full.map((t) => t.runId) } });
      throw new OpsError(
        `another reindex registered ${full.map((t) => t.alias).join(', ')} meanwhile: wait for it to finish`,
      );
    }
    const registration = new RebuildRegistration(db, full, now.getTime());
    registration.timer = setInterval(() => void registration.beat(), TARGET_HEARTBEAT_MS);
    registration.timer.unref();
    return registration;
  }

  /** Forgets the registrations of `aliases` (left by crashed runs). */
  static async clear(db: Db, aliases: string[]): Promise<void> {
    await reindexTargets(db).deleteMany({ alias: { $in: aliases } });
  }

  private async beat(): Promise<void> {
    const now = Date.now();
    try {
      await reindexTargets(this.db).updateMany(this.own(), { $set: { heartbeatAt: new Date(now) } });
      this.maxGapMs = Math.max(this.maxGapMs, now - this.lastBeat);
      this.lastBeat = now;
    } catch {
      // A missed beat only widens the gap that assertAlive() checks.
    }
  }

  /** Refreshes the heartbeat now and fails if it ever lapsed long enough to be ignored. */
  async assertAlive(): Promise<void> {
    await this.beat();
    const gap = Math.max(this.maxGapMs, Date.now() - this.lastBeat);
    if (gap >= MAX_SAFE_GAP_MS) {
      throw new OpsError(
        `the rebuild's registration went without a heartbeat for ${Math.round(gap / 1000)} s (MongoDB unreachable or the process stalled), so writes in that time may be missing from the new index; the live alias is unchanged: run the reindex again`,
      );
    }
  }

  /** Stops the heartbeat and removes the registration (workers stop mirroring at their next batch). */
  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await reindexTargets(this.db).deleteMany(this.own());
  }

  /** This run's registrations: a run that stalled past its lease leaves the next run's alone. */
  private own() {
    return { _id: { $in: this.targets.map((t) => t._id) }, runId: { $in: this.targets.map((t) => t.runId) } };
  }
}
