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
import { KnownValidators } from './knownValidators';
import { SizedCache } from '../../lib/sizedCache';
import { isHeldNow } from '../../storage/writeClaims';

/** The JSON of answers kept per read route, by entity tag (about 3,000 events), as sent (UTF-8). */
const MAX_KEPT_ANSWER_BYTES = 16 * 1024 * 1024;

/** `GET /{plural}/:id` or `/{plural}/by-slug/:slug`: one record, as the caller may see it. */
export function readRoute<D extends BaseDoc, R extends object, A>(
  res: Resource<D, any, R>,
  address: Address<D, A>,
): RouteSpec {
  const { def } = res;
  const plural = PLURAL[def.kind];
  const dependsOn = def.readDependsOn ?? [];
  const watched = [...new Set([def.kind, ...dependsOn])];
  // A revalidation of a read answered before is answered from the change marks alone, as long as
  // no record it is made of changed since; else from the record and the marks, before loading and
  // presenting what it embeds.
  const validators = new KnownValidators(watched);
  const answers = new SizedCache<Buffer>(MAX_KEPT_ANSWER_BYTES);
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
    handler: async (ctx) => {
      // Read first, from the database (not kept): what the record, the embedded records kept per
      // mark and the known validator are checked against, so that any process's writes show at once.
      const marks = await res.services.sync.marks.current(watched);
      const key = validators.keyOf(ctx, address.keyOf(ctx.input), 'json');
      const known = validators.get(key, marks);
      if (known && answeredNotModified(ctx, known)) return;
      const record = await address.find(ctx);
      assertReadable(def.kind, ctx.state.principal, recordOwnership(record), address.named(ctx.input, record));
      await def.authorizeRead?.(ctx, record);
      const embedded = new Map(dependsOn.flatMap((kind) => (marks.has(kind) ? [[kind, marks.get(kind)!]] : [])));
      // An answer that changes with the time too is made afresh, its validator of the minute.
      const timely = def.readChangesWithTime?.(record) ?? false;
      const validator = singleReadValidator(ctx, def.kind, record, embedded, 'json', ctx.state.principal, timely);
      // Known by its marks only while the time does not change it; an answer its authorization
      // made private (an event's password) is this caller's alone.
      if (!timely && !ctx.response.get('Cache-Control') && !isHeldNow(record)) validators.set(key, marks, validator);
      if (answeredNotModified(ctx, validator)) return;
      // The tag is made from all the answer is made of (readValidator.ts): the same tag, the same JSON.
      let json = timely ? undefined : answers.get(validator.etag);
      if (json === undefined) {
        json = Buffer.from(JSON.stringify(await present(res, record, ctx, marks)));
        if (!timely) answers.set(validator.etag, json);
      }
      ctx.type = 'application/json';
      ctx.body = json;
    },
  });
}
