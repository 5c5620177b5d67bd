import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection, Db } from 'mongodb';
import { ConflictError } from '../domain/errors';
import { KeyedQueue } from '../lib/keyedQueue';
import { leaseCollection, releaseLeases, takeLease, type LeaseDoc } from './leases';

/** How long a holder keeps the lock at most: a process that crashed holding it blocks no longer. */
const TREE_LEASE_MS = 30_000;
/** How long a write waits for another process to release the lock before answering 409. */
export const TREE_WAIT_MS = 2_000;
const RETRY_MS = 20;

/**
 * One lock over a hierarchy (category parents, event `post_parent`s). A write that gives a record
 * a parent checks that no cycle results and writes while holding it: two writes each checked
 * alone could both pass, X under Y and Y under X.
 *
 * Holders in this process queue; across processes the lock is a lease document in `locks`,
 * taken only when free or expired and released when the task ends (`./leases`). Tasks are a
 * check and a few writes, far shorter than the lease.
 */
export class TreeLock {
  private readonly queue = new KeyedQueue<string>();
  private readonly locks: Collection<LeaseDoc>;

  constructor(
    db: Db,
    /** The lock's document ID, e.g. `categories.parent`. */
    private readonly name: string,
    /** What a write that could not get the lock in time is told is busy. */
    private readonly what: string,
  ) {
    this.locks = leaseCollection(db);
  }

  /** Runs `task` holding the lock; 409 when it is not free within TREE_WAIT_MS of this call. */
  hold<T>(task: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + TREE_WAIT_MS;
    return this.queue.run(this.name, async () => {
      const holder = await this.acquire(deadline);
      try {
        return await task();
      } finally {
        // The task's outcome stands either way: a lease not released expires.
        await releaseLeases(this.locks, [this.name], holder).catch(() => undefined);
      }
    });
  }

  /** Takes the lease, trying at least once however long the queue took. */
  private async acquire(deadline: number): Promise<string> {
    const holder = randomBytes(8).toString('hex');
    for (;;) {
      if (await takeLease(this.locks, this.name, holder, TREE_LEASE_MS)) return holder;
      if (Date.now() >= deadline) {
        throw new ConflictError(`Another write is changing the ${this.what} at the same time; send the change again.`);
      }
      await sleep(RETRY_MS);
    }
  }
}
