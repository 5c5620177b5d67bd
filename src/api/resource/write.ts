import { checkEach, ValidationError } from '../../domain/errors';
import { writeRequestOf } from '../../domain/policy';
import type { AppContext, RequestContext } from '../../http/types';
import { parentProblem } from '../../services/commands/parentProblem';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import { assertKnownAuthor } from '../posts/postContent';
import type { Address } from './address';
import { inTree, otherKindOf, type Resource } from './resource';

/** The write's content planned, its author checked too: a write is told every bad parameter at once. */
export async function planned<D extends BaseDoc, W extends object>(
  res: Resource<D, W>,
  ctx: AppContext,
  input: W,
  existing: StoredRecord<D> | null,
) {
  const { services, def } = res;
  const [, plan] = await checkEach([
    () => def.posts && assertKnownAuthor(services, writeRequestOf(input).author, ctx.state.principal),
    () => def.planContent(services, ctx, input, existing),
  ] as const);
  return plan!;
}

/**
 * Writes the content of a plan, which `write` commits when it is sure to write. A write that
 * gives the record a parent checks it and writes holding the tree lock: no other re-parenting
 * can close a cycle, nor delete the parent, in between. Every other check ran before, in
 * `planContent`.
 */
export async function written<D extends BaseDoc, W extends object>(
  res: Resource<D, W>,
  input: W,
  self: number | null,
  write: () => Promise<StoredRecord<D>>,
): Promise<StoredRecord<D>> {
  const { tree } = res.store;
  // The parent is sent under the name of the stored field (`parent`, `post_parent`).
  const parent = tree ? Number((input as Record<string, unknown>)[tree.field] ?? 0) : 0;
  if (!tree || parent === 0) return write();
  return inTree(res, async () => {
    const placement = await tree.placement(parent, self);
    if (placement !== 'fits') {
      const otherKind = placement === 'missing' ? await otherKindOf(res, parent) : undefined;
      throw new ValidationError({ [tree.field]: parentProblem(res.def.kind, placement, parent, self, otherKind) });
    }
    return write();
  });
}

/**
 * Runs a write of the record `address` names with no other write of it running in this process,
 * on the record as it is then: concurrent writes queue instead of answering 409 (which only
 * writes from different processes meeting can cause, see RecordStore.update).
 */
export async function writing<D extends BaseDoc, A>(
  res: Resource<D>,
  address: Address<D, A>,
  ctx: RequestContext<A>,
  write: (record: StoredRecord<D>) => Promise<void>,
): Promise<void> {
  // By ID, the record is read once, in the queue; by slug, its ID is looked up first.
  const known = address.idIn(ctx.input);
  const id = known ?? (await address.find(ctx)).id;
  const current = async () =>
    known !== undefined ? address.find(ctx) : ((await res.store.get(id)) ?? address.find(ctx));
  await res.store.exclusive(id, async () => write(await current()));
}
