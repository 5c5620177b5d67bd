import type { Collection, Db } from 'mongodb';
import type { RecordKind } from '../domain/kinds';
import type { BaseDoc } from './storedRecord';
import { TreeLock } from './treeLock';

/** Ancestors further up than this are not followed (a guard against corrupted data). */
export const MAX_TREE_DEPTH = 100;

/** Where a proposed parent would put a record (see RecordTree.placement). */
export type Placement = 'fits' | 'missing' | 'self' | 'cycle' | 'too-deep';

/**
 * The hierarchy formed by one kind's records through a shared field naming a parent of the
 * same kind (category `parent`, event `post_parent`), and the lock that keeps it acyclic.
 */
export class RecordTree<D extends BaseDoc> {
  private readonly lock: TreeLock;
  private readonly docs: Collection<BaseDoc>;

  constructor(
    db: Db,
    collection: string,
    kind: RecordKind,
    readonly field: keyof D & string,
  ) {
    this.lock = new TreeLock(db, `${collection}.${field}`, `${kind} hierarchy`);
    this.docs = db.collection<BaseDoc>(collection);
  }

  /**
   * Runs `task` holding the tree lock: no other re-parenting runs meanwhile, so a placement
   * checked in `task` still holds when `task` writes (two writes each checked alone could both
   * pass, X under Y and Y under X).
   */
  hold<T>(task: () => Promise<T>): Promise<T> {
    return this.lock.hold(task);
  }

  /**
   * Whether record `self` (null: a record not created yet) may have `parent` as its parent:
   * `parent` must exist, walking up from it must not reach `self`, and the tree above it must be
   * less than MAX_TREE_DEPTH levels deep (creates included). A record keeping its parent fits.
   */
  async placement(parent: number, self: number | null): Promise<Placement> {
    if (parent === self) return 'self';
    let up = await this.parentOf(parent);
    if (up === null) return 'missing';
    if (self !== null && (await this.parentOf(self)) === parent) return 'fits';
    for (let depth = 0; depth < MAX_TREE_DEPTH; depth++) {
      if (up === 0) return 'fits';
      if (up === self) return 'cycle';
      const next = await this.parentOf(up);
      if (next === null) return 'fits';
      up = next;
    }
    return 'too-deep';
  }

  /** Record `id`'s parent (0: none), or null when there is no such record: one field of one document. */
  private async parentOf(id: number): Promise<number | null> {
    // The field is shared: every language document of the record holds the same value.
    const doc = await this.docs.findOne({ id }, { projection: { [this.field]: 1 } });
    return doc ? Number((doc as Record<string, unknown>)[this.field] ?? 0) : null;
  }
}
