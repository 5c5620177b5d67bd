import type { Db } from 'mongodb';
import type { RecordKind } from '../domain/kinds';
import { inLanguage, type BaseDoc, type StoredRecord } from './storedRecord';
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

  constructor(
    db: Db,
    collection: string,
    kind: RecordKind,
    readonly field: keyof D & string,
    private readonly get: (id: number) => Promise<StoredRecord<D> | null>,
  ) {
    this.lock = new TreeLock(db, `${collection}.${field}`, `${kind} hierarchy`);
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
   * `parent` must exist, and walking up from it must not reach `self`.
   */
  async placement(parent: number, self: number | null): Promise<Placement> {
    if (parent === self) return 'self';
    let current = await this.get(parent);
    if (!current) return 'missing';
    if (self === null) return 'fits';
    for (let depth = 0; depth < MAX_TREE_DEPTH; depth++) {
      const up = Number(inLanguage(current, current.originalLang)[this.field] ?? 0);
      if (up === 0) return 'fits';
      if (up === self) return 'cycle';
      const next = await this.get(up);
      if (!next) return 'fits';
      current = next;
    }
    return 'too-deep';
  }
}
