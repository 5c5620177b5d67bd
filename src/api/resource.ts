import type Joi from 'joi';
import type { Language } from '../../config';
import { applyVerdict, decideCreate, decideDelete, decideUpdate, writeRequestOf } from '../domain/policy';
import { assertReadable, recordOwnership } from '../storage/recordAccess';
import { checkEach, GoneError, invalidKindId, notFound, ValidationError } from '../domain/errors';
import { Joi as J, language } from '../http/params';
import type { Method, RequestContext, RouteSpec } from '../http/types';
import type { Services } from '../services/container';
import type { BaseDoc, StoredRecord } from '../storage/storedRecord';
import { waitForIndex } from '../http/waitPreference';
import { answeredNotModified } from '../http/caching';
import { singleReadValidator } from './readValidator';
import { viewOf } from '../services/views/recordViews';
import { withArticle } from '../domain/words';
import { assertKnownAuthor } from './posts/postContent';
import { PLURAL, type RecordKind } from '../domain/kinds';
import { parentProblem } from '../services/commands/parentProblem';
import type { ResourceDefinition } from './resourceDefinition';
import { siblingStores } from '../storage/stores';

type Input = Record<string, unknown>;

const WRITE_METHODS: Method[] = ['POST', 'PUT', 'PATCH'];

/** The generic CRUD routes of one resource: by ID, and by slug for posts (interface.md part 4). */
export function resourceRoutes<D extends BaseDoc>(services: Services, def: ResourceDefinition<D>): RouteSpec[] {
  const store = def.store(services);
  const { kind: label } = def;
  const plural = PLURAL[def.kind];
  const view = viewOf(def.kind);
  const lang = (ctx: RequestContext<Input>): Language => ctx.state.language;
  const readSchema = (def.readSchema ?? J.object()).keys({ i18n_language: language() });
  // Any digits (CONTRACT 1): an ID no record can have, 0 or past the safe integers, is just not found.
  const byId = { id: J.number().integer().min(0).unsafe().required().description(`${label} ID`) };
  const bySlug = { lookup_slug: J.string().max(400).required().description(`${label} slug`) };
  const treeConflicts = store.tree ? [409] : [];

  /** Embedded terms' counts come from the index when it is current: counting costs a pass over every event. */
  async function present(record: StoredRecord<D>, ctx: RequestContext<Input>): Promise<Record<string, unknown>> {
    const [presented] = await view(services, [record], lang(ctx), { embeddedCounts: 'index-if-current' });
    const body = def.visibleTo ? def.visibleTo(presented!, ctx.state.principal) : presented!;
    return def.decorateSingle ? def.decorateSingle(services, record, body, lang(ctx)) : body;
  }

  /** The kind sharing this kind's ID counter that holds record `id`, if any (a wrong-kind ID). */
  async function otherKindOf(id: number): Promise<RecordKind | undefined> {
    for (const sibling of siblingStores(services.stores, def.kind)) if (await sibling.exists(id)) return sibling.kind;
    return undefined;
  }

  async function findById(id: number, written: string): Promise<StoredRecord<D>> {
    // No record has an ID past the safe integers; the message names the ID as written, not rounded.
    if (!Number.isSafeInteger(id)) throw notFound(def.kind, written);
    const record = await store.get(id);
    if (record) return record;
    throw (await otherKindOf(id)) ? invalidKindId(def.kind, id) : notFound(def.kind, id);
  }

  async function findBySlug(ctx: RequestContext<Input>): Promise<StoredRecord<D>> {
    const slug = ctx.input.lookup_slug as string;
    const record = await store.getBySlugAsWritten(slug, lang(ctx));
    if (!record) throw notFound(def.kind, slug);
    return record;
  }

  /** The write's content planned, its author checked too: a write is told every bad parameter at once. */
  async function planned(ctx: RequestContext<Input>, input: Input, existing: StoredRecord<D> | null) {
    const [, plan] = await checkEach([
      () => def.posts && assertKnownAuthor(services, input, ctx.state.principal),
      () => def.planContent(services, ctx, input, existing),
    ] as const);
    return plan!;
  }

  /** Runs `task` holding the tree lock when records of the kind form a tree. */
  const inTree = <T>(task: () => Promise<T>): Promise<T> => (store.tree ? store.tree.hold(task) : task());

  /**
   * Writes the content of `plan`, which `write` commits when it is sure to write. A write that
   * gives the record a parent checks it and writes holding the tree lock: no other re-parenting
   * can close a cycle, nor delete the parent, in between. Every other check ran before, in
   * `planContent`.
   */
  async function written(
    input: Input,
    self: number | null,
    write: () => Promise<StoredRecord<D>>,
  ): Promise<StoredRecord<D>> {
    const { tree } = store;
    const parent = tree ? Number(input[tree.field] ?? 0) : 0;
    if (!tree || parent === 0) return write();
    return inTree(async () => {
      const placement = await tree.placement(parent, self);
      if (placement !== 'fits') {
        const otherKind = placement === 'missing' ? await otherKindOf(parent) : undefined;
        throw new ValidationError({ [tree.field]: parentProblem(def.kind, placement, parent, self, otherKind) });
      }
      return write();
    });
  }

  type Finder = (ctx: RequestContext<Input>) => Promise<StoredRecord<D>>;
  const finders: [string, Record<string, Joi.Schema>, Finder, Record<string, string> | undefined][] = [
    [
      `/${plural}/:id`,
      byId,
      (ctx) => findById(ctx.input.id as number, String(ctx.params?.id ?? ctx.input.id)),
      undefined,
    ],
  ];
  if (def.posts) finders.push([`/${plural}/by-slug/:slug`, bySlug, findBySlug, { slug: 'lookup_slug' }]);

  /**
   * A read answers a revalidation from the record and the change marks of what it depends on
   * (read beside it, kept 250 ms), before loading and presenting what it embeds.
   */
  async function read(ctx: RequestContext<Input>, find: Finder): Promise<void> {
    const marks = services.sync.marks.read(def.readDependsOn ?? []);
    marks.catch(() => undefined); // awaited below, unless the record is not found first
    const record = await find(ctx);
    const slug = ctx.input.lookup_slug;
    const named = typeof slug === 'string' ? `slug "${slug}"` : `ID ${record.id}`;
    assertReadable(def.kind, ctx.state.principal, recordOwnership(record), named);
    await def.authorizeRead?.(ctx, record);
    if (answeredNotModified(ctx, singleReadValidator(ctx, def.kind, record, await marks, 'json'))) return;
    ctx.body = await present(record, ctx);
  }

  /**
   * Runs a write of the record `find` names with no other write of it running in this process,
   * on the record as it is then: concurrent writes queue instead of answering 409 (which only
   * writes from different processes meeting can cause, see RecordStore.update).
   */
  async function writing(ctx: RequestContext<Input>, find: Finder, write: (record: StoredRecord<D>) => Promise<void>) {
    // By ID, the record is read once, in the queue; by slug, its ID is looked up first.
    const byId = typeof ctx.input.id === 'number';
    const id = byId ? (ctx.input.id as number) : (await find(ctx)).id;
    const current = async () => (byId ? find(ctx) : ((await store.get(id)) ?? find(ctx)));
    await store.exclusive(id, async () => write(await current()));
  }

  async function update(ctx: RequestContext<Input>, find: Finder): Promise<void> {
    await writing(ctx, find, (existing) => updateRecord(ctx, existing));
  }

  async function updateRecord(ctx: RequestContext<Input>, existing: StoredRecord<D>): Promise<void> {
    const verdict = decideUpdate(def.kind, ctx.state.principal, recordOwnership(existing), writeRequestOf(ctx.input));
    const input = applyVerdict(verdict, ctx.input);
    const plan = await planned(ctx, input, existing);
    // Claimed before the plan commits: a write that loses to another process's makes nothing.
    const updated = await written(input, existing.id, () => store.update(existing, lang(ctx), () => plan.commit()));
    await waitForIndex(ctx, services, def.kind, updated.id);
    ctx.body = await present(updated, ctx);
  }

  async function remove(ctx: RequestContext<Input>, find: Finder): Promise<void> {
    await writing(ctx, find, (record) => removeRecord(ctx, record));
  }

  async function removeRecord(ctx: RequestContext<Input>, record: StoredRecord<D>): Promise<void> {
    const force = ctx.input.force === true;
    applyVerdict(decideDelete(def.kind, ctx.state.principal, recordOwnership(record), force), ctx.input);
    if (!def.posts || force) {
      // Its children move to another parent: no re-parenting may check against the tree meanwhile.
      // The tree lock comes before the record's claim, as for every write (see `written`): moving
      // the children waits for writes holding them, and none of those waits for the tree lock.
      const body = await inTree(async () => {
        // Another delete moving its own children may have changed this record while this one waited.
        const current = store.tree ? await store.get(record.id) : record;
        if (!current) throw notFound(def.kind, record.id);
        applyVerdict(decideDelete(def.kind, ctx.state.principal, recordOwnership(current), force), ctx.input);
        const presented = await present(current, ctx);
        await store.remove(current, async (deleteDocuments) => {
          await def.onPermanentDelete?.(services, record.id);
          await def.reparentChildren?.(services, record.id);
          await deleteDocuments();
        });
        return presented;
      });
      await waitForIndex(ctx, services, def.kind, record.id);
      ctx.body = def.posts ? { id: record.id, deleted: true } : body;
      return;
    }
    const { status } = recordOwnership(record);
    if (status === 'trash') throw new GoneError(def.kind, record.id);
    const trashed = await store.update(record, record.originalLang, {
      status: 'trash',
      statusBeforeTrash: status,
    } as unknown as Partial<D>);
    await waitForIndex(ctx, services, def.kind, record.id);
    ctx.body = await present(trashed, ctx);
  }

  const routes: RouteSpec[] = [
    {
      methods: ['POST'],
      path: `/${plural}`,
      resource: plural,
      summary: `Create ${withArticle(label)}`,
      access: 'write',
      input: def.writeSchema.keys({ i18n_language: language() }).fork(def.requiredOnCreate, (s) => s.required()),
      response: def.kind,
      errors: [400, 401, 403, ...treeConflicts, 413, 415],
      handler: async (ctx: RequestContext<Input>) => {
        const input = applyVerdict(decideCreate(def.kind, ctx.state.principal, writeRequestOf(ctx.input)), ctx.input);
        const plan = await planned(ctx, input, null);
        const created = await written(input, null, async () => store.create(lang(ctx), await plan.commit()));
        await waitForIndex(ctx, services, def.kind, created.id);
        const body = await present(created, ctx);
        ctx.status = 201;
        ctx.set('Location', String(body.rest_url));
        ctx.body = body;
      },
    },
  ];
  for (const [path, key, find, pathKeys] of finders) {
    const addressed = path.includes('by-slug') ? 'by slug' : 'by ID';
    routes.push(
      {
        methods: ['GET'],
        path,
        pathKeys,
        resource: plural,
        summary: `Read ${withArticle(label)} ${addressed}`,
        access: 'read',
        input: readSchema.keys(key),
        response: def.kind,
        // Terms have no status or password: a read is 200, 400 or 404.
        errors: def.posts ? [400, 403, 404] : [400, 404],
        handler: (ctx: RequestContext<Input>) => read(ctx, find),
      },
      {
        methods: WRITE_METHODS,
        path,
        pathKeys,
        resource: plural,
        summary: `Update ${withArticle(label)} ${addressed} (POST, PUT and PATCH all merge)`,
        access: 'write',
        input: def.writeSchema.keys({
          i18n_language: language(),
          ...key,
        }),
        response: def.kind,
        errors: [400, 401, 403, 404, 409],
        handler: (ctx: RequestContext<Input>) => update(ctx, find),
      },
      {
        methods: ['DELETE'],
        path,
        pathKeys,
        resource: plural,
        summary: def.posts
          ? `Trash ${withArticle(label)} ${addressed} (force=true deletes permanently)`
          : `Delete ${withArticle(label)} permanently`,
        access: 'write',
        input: readSchema.keys({
          ...key,
          ...(def.posts
            ? { force: J.flag().default(false).description('Delete permanently instead of trashing') }
            : {}),
        }),
        response: def.kind,
        // Only posts go to the trash (410 when already there); terms are deleted at once. 409:
        // another process's write holds the record, or (categories) the tree lock stays held.
        errors: def.posts ? [400, 401, 403, 404, 409, 410] : [400, 401, 403, 404, 409],
        handler: (ctx: RequestContext<Input>) => remove(ctx, find),
      },
    );
  }
  return routes;
}
