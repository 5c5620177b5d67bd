import { GoneError, notFound } from '../../domain/errors';
import { applyVerdict, decideDelete } from '../../domain/policy';
import { withArticle } from '../../domain/words';
import { Joi, type LanguageInput } from '../../http/params';
import { route, withKeys, type InputSchema } from '../../http/route';
import type { RequestContext, RouteSpec } from '../../http/types';
import { waitForIndex } from '../../http/waitPreference';
import { recordOwnership } from '../../storage/recordAccess';
import { PLURAL } from '../../domain/kinds';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import type { PostDoc } from '../../storage/stores';
import type { Address } from './address';
import { inTree, present, readInput, type Resource } from './resource';
import { writing } from './write';

/** Posts are trashed unless `force`; terms have no trash (the schema has no `force` for them). */
interface ForceInput {
  force?: boolean;
}

/** `DELETE /{plural}/:id` (or by slug): trashes a post, or deletes it (`force`) or a term for good. */
export function deleteRoute<D extends BaseDoc, R extends object, A>(
  res: Resource<D, any, R>,
  address: Address<D, A>,
): RouteSpec {
  const { def } = res;
  const plural = PLURAL[def.kind];
  const addressed = withKeys(readInput(res), address.keys);
  const input = def.posts
    ? withKeys<R & LanguageInput & A, ForceInput>(addressed, {
        force: Joi.flag().default(false).description('Delete permanently instead of trashing'),
      })
    : (addressed as InputSchema<R & LanguageInput & A & ForceInput>);
  return route({
    methods: ['DELETE'],
    path: address.path,
    pathKeys: address.pathKeys,
    resource: plural,
    summary: def.posts
      ? `Trash ${withArticle(def.kind)} ${address.addressed} (force=true deletes permanently)`
      : `Delete ${withArticle(def.kind)} permanently`,
    access: 'write',
    input,
    response: def.kind,
    // Only posts go to the trash (410 when already there); terms are deleted at once. 409:
    // another process's write holds the record, or (categories) the tree lock stays held.
    errors: def.posts ? [400, 401, 403, 404, 409, 410] : [400, 401, 403, 404, 409],
    handler: (ctx) =>
      writing(res, address, ctx, (record) =>
        def.posts && ctx.input.force !== true ? trash(res, ctx, record) : removeForGood(res, ctx, record),
      ),
  });
}

/** Moves a post to the trash (410 when it is there already). */
async function trash<D extends BaseDoc>(
  res: Resource<D>,
  ctx: RequestContext<ForceInput>,
  record: StoredRecord<D>,
): Promise<void> {
  const { services, def, store } = res;
  applyVerdict(decideDelete(def.kind, ctx.state.principal, recordOwnership(record), false), ctx.input);
  const { status } = recordOwnership(record);
  if (status === 'trash') throw new GoneError(def.kind, record.id);
  const trash: Partial<PostDoc> = { status: 'trash', statusBeforeTrash: status };
  const trashed = await store.update(record, record.originalLang, trash as Partial<D>);
  await waitForIndex(ctx, services, def.kind, record.id);
  ctx.body = await present(res, trashed, ctx);
}

/**
 * Deletes a record permanently. Its children move to another parent: no re-parenting may check
 * against the tree meanwhile. The tree lock comes before the record's claim, as for every write
 * (see `written`, ./write.ts): moving the children waits for writes holding them, and none of those waits
 * for the tree lock.
 */
async function removeForGood<D extends BaseDoc>(
  res: Resource<D>,
  ctx: RequestContext<ForceInput>,
  record: StoredRecord<D>,
): Promise<void> {
  const { services, def, store } = res;
  const force = ctx.input.force === true;
  applyVerdict(decideDelete(def.kind, ctx.state.principal, recordOwnership(record), force), ctx.input);
  const body = await inTree(res, async () => {
    // Another delete moving its own children may have changed this record while this one waited.
    const current = store.tree ? await store.get(record.id) : record;
    if (!current) throw notFound(def.kind, record.id);
    applyVerdict(decideDelete(def.kind, ctx.state.principal, recordOwnership(current), force), ctx.input);
    const presented = await present(res, current, ctx);
    await store.remove(current, async (deleteDocuments) => {
      await def.onPermanentDelete?.(services, record.id);
      await def.reparentChildren?.(services, record.id);
      await deleteDocuments();
    });
    return presented;
  });
  await waitForIndex(ctx, services, def.kind, record.id);
  ctx.body = def.posts ? { id: record.id, deleted: true } : body;
}
