import { withArticle } from '../../domain/words';
import { route, withKeys } from '../../http/route';
import type { RouteSpec } from '../../http/types';
import { assertReadable, recordOwnership } from '../../storage/recordAccess';
import { PLURAL } from '../../domain/kinds';
import type { BaseDoc } from '../../storage/storedRecord';
import type { Address } from './address';
import { present, readInput, type Resource } from './resource';
import { answeredNotModified } from '../../http/caching';
import { singleReadValidator } from '../readValidator';

/** `GET /{plural}/:id` or `/{plural}/by-slug/:slug`: one record, as the caller may see it. */
export function readRoute<D extends BaseDoc, R extends object, A>(
  res: Resource<D, any, R>,
  address: Address<D, A>,
): RouteSpec {
  const { def } = res;
  const plural = PLURAL[def.kind];
  return route({
    methods: ['GET'],
    path: address.path,
    pathKeys: address.pathKeys,
    resource: plural,
    summary: `Read ${withArticle(def.kind)} ${address.addressed}`,
    access: 'read',
    input: withKeys(readInput(res), address.keys),
    response: def.kind,
    // Terms have no status or password: a read is 200, 400 or 404.
    errors: def.posts ? [400, 403, 404] : [400, 404],
    // A revalidation is answered from the record and the change marks of what it depends on
    // (read beside it, kept 250 ms), before loading and presenting what it embeds.
    handler: async (ctx) => {
      const marks = res.services.sync.marks.read(def.readDependsOn ?? []);
      marks.catch(() => undefined); // awaited below, unless the record is not found first
      const record = await address.find(ctx);
      assertReadable(def.kind, ctx.state.principal, recordOwnership(record), address.named(ctx.input, record));
      await def.authorizeRead?.(ctx, record);
      if (answeredNotModified(ctx, singleReadValidator(ctx, def.kind, record, await marks, 'json'))) return;
      ctx.body = await present(res, record, ctx);
    },
  });
}
