import { applyVerdict, decideUpdate, writeRequestOf } from '../../domain/policy';
import { withArticle } from '../../domain/words';
import { route, withKeys } from '../../http/route';
import type { RequestContext, RouteSpec } from '../../http/types';
import { waitForIndex } from '../../http/waitPreference';
import { recordOwnership } from '../../storage/recordAccess';
import { PLURAL } from '../../domain/kinds';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import type { Address } from './address';
import { present, writeInput, type Resource } from './resource';
import { planned, writing, written } from './write';

/** `POST`, `PUT` or `PATCH /{plural}/:id` (or by slug): all three merge the fields sent. */
export function updateRoute<D extends BaseDoc, W extends object, A>(
  res: Resource<D, W>,
  address: Address<D, A>,
): RouteSpec {
  const { def } = res;
  const plural = PLURAL[def.kind];
  return route({
    methods: ['POST', 'PUT', 'PATCH'],
    path: address.path,
    pathKeys: address.pathKeys,
    resource: plural,
    summary: `Update ${withArticle(def.kind)} ${address.addressed} (POST, PUT and PATCH all merge)`,
    access: 'write',
    input: withKeys(writeInput(res), address.keys),
    response: def.kind,
    errors: [400, 401, 403, 404, 409],
    handler: (ctx) => writing(res, address, ctx, (existing) => updateRecord(res, ctx, existing)),
  });
}

async function updateRecord<D extends BaseDoc, W extends object>(
  res: Resource<D, W>,
  ctx: RequestContext<W>,
  existing: StoredRecord<D>,
): Promise<void> {
  const { services, def, store } = res;
  const verdict = decideUpdate(def.kind, ctx.state.principal, recordOwnership(existing), writeRequestOf(ctx.input));
  const input = applyVerdict(verdict, ctx.input);
  const plan = await planned(res, ctx, input, existing);
  // Claimed before the plan commits: a write that loses to another process's makes nothing.
  const updated = await written(res, input, existing.id, () =>
    store.update(existing, ctx.state.language, () => plan.commit()),
  );
  await waitForIndex(ctx, services, def.kind, updated.id);
  ctx.body = await present(res, updated, ctx);
}
