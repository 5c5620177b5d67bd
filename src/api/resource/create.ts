import { applyVerdict, decideCreate, writeRequestOf } from '../../domain/policy';
import { withArticle } from '../../domain/words';
import { route } from '../../http/route';
import type { RouteSpec } from '../../http/types';
import { waitForIndex } from '../../http/waitPreference';
import { PLURAL } from '../../domain/kinds';
import type { BaseDoc } from '../../storage/storedRecord';
import { present, writeInput, type Resource } from './resource';
import { planned, written } from './write';

/** `POST /{plural}`: creates a record (201, with its `Location`). */
export function createRoute<D extends BaseDoc, W extends object>(res: Resource<D, W>): RouteSpec {
  const { services, def, store } = res;
  const plural = PLURAL[def.kind];
  return route({
    methods: ['POST'],
    path: `/${plural}`,
    resource: plural,
    summary: `Create ${withArticle(def.kind)}`,
    access: 'write',
    input: writeInput(res).fork(def.requiredOnCreate, (s) => s.required()),
    response: def.kind,
    errors: [400, 401, 403, ...(store.tree ? [409] : []), 413, 415],
    handler: async (ctx) => {
      const input = applyVerdict(decideCreate(def.kind, ctx.state.principal, writeRequestOf(ctx.input)), ctx.input);
      const plan = await planned(res, ctx, input, null);
      const created = await written(res, input, null, async () =>
        store.create(ctx.state.language, await plan.commit()),
      );
      await waitForIndex(ctx, services, def.kind, created.id);
      const body = await present(res, created, ctx);
      ctx.status = 201;
      ctx.set('Location', String(body.rest_url));
      ctx.body = body;
    },
  });
}
