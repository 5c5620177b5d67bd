import type { Collection, Db } from 'mongodb';
import { TARGET_HEARTBEAT_MS, TARGET_STALE_MS } from '../reindexTargets';
import { leaseCollection, releaseLeases, takeLease, type LeaseDoc } from '../../storage/leases';
import { OpsError, ReindexBusy } from '../opsError';

/** A run that stopped renewing its lease (killed, or stalled) loses it after this long. */
const LEASE_MS = TARGET_STALE_MS;

const leaseId = (alias: string) => `reindex:${alias}`;

/**
 * One reindex run at a time per alias, across processes: a lease document per alias in `locks`,
 * taken before the run looks at what earlier runs left, renewed while it runs, released at its
 * end. Without it, two runs started together could each pass the check for the other, then
 * delete each other's index or registration.
 */
export class ReindexLease {
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly locks: Collection<LeaseDoc>,
    private readonly ids: string[],
    private readonly holder: string,
  ) {}

  /** Takes the lease of every alias, or none and throws OpsError naming the run holding one. */
  static async take(db: Db, aliases: string[], holder: string, label: string): Promise<ReindexLease> {
    const locks = leaseCollection(db);
    const lease = new ReindexLease(locks, [...aliases].sort().map(leaseId), holder);
    for (const id of lease.ids) {
      const taken = await takeLease(locks, id, holder, LEASE_MS).catch(async (err: unknown) => {
        await lease.release().catch(() => undefined);
        throw err;
      });
      if (taken) continue;
      await lease.release();
      const held = await locks.findOne({ _id: id });
      const now = Date.now();
      const sinceS = held ? Math.round((now - held.since.getTime()) / 1000) : 0;
      const freeInS = held ? Math.max(1, Math.ceil((held.until.getTime() - now) / 1000)) : 1;
      throw new ReindexBusy(
        `another reindex is rebuilding ${label} (started ${sinceS} s ago): wait for it to finish; if it was killed, run again in ${freeInS} s`,
      );
    }
    lease.timer = setInterval(() => void lease.renew().catch(() => undefined), TARGET_HEARTBEAT_MS);
    lease.timer.unref();
    return lease;
  }

  private async renew(): Promise<void> {
    await this.locks.updateMany(
      { _id: { $in: this.ids }, holder: this.holder },
      { $set: { until: new Date(Date.now() + LEASE_MS) } },
    );
  }

  /** Renews the lease now and fails when another run took it over meanwhile (this run stalled). */
  async assertHeld(): Promise<void> {
    await this.renew();
    const held = await this.locks.countDocuments({ _id: { $in: this.ids }, holder: this.holder });
    if (held < this.ids.length) {
      throw new OpsError(
        `this run stalled past its lease (${LEASE_MS / 1000} s), so another reindex may have started; the live aliases are unchanged: run the reindex again`,
      );
    }
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await releaseLeases(this.locks, this.ids, this.holder);
  }
}
