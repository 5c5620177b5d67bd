import { applyVerdict, decideCreate, mayLink, writeRequestOf } from '../../domain/policy';
import { recordOwnership } from '../../storage/recordAccess';
import { checkEach, ForbiddenError, ValidationError } from '../../domain/errors';
import type { AppContext } from '../../http/types';
import type { Principal } from '../../domain/principal';
import type { Services } from '../../services/container';
import { type RecordStore } from '../../storage/recordStore';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import { storeOf, type EventDoc } from '../../storage/stores';
import { organizerDefinition } from '../organizers/definition';
import { withArticle } from '../../domain/words';
import { assertKnownAuthor } from '../posts/postContent';
import type { ContentPlan, ResourceDefinition } from '../resource/definition';
import { venueDefinition } from '../venues/definition';
import type { RecordKind } from '../../domain/kinds';
import type { EventWriteInput, LinkInput } from './schema';

type LinkField = 'venues' | 'organizers';

/** One `venue` / `organizer` parameter: existing IDs and inline records (write input `W`) to create, in order. */
type Ref<W> = number | W;

function refsOf<W>(value: LinkInput<W>): Ref<W>[] {
  if (value === null || value === '' || value === 0) return [];
  return Array.isArray(value) ? value : [value];
}

const listed = (ids: number[]) => [...new Set(ids)].join(', ');

/**
 * Linked IDs must name records of the kind (400), the caller may link (403) and that are not in
 * the trash (400): a trashed record is hidden wherever it is embedded, so the link would vanish.
 */
async function checkIds(
  store: RecordStore<BaseDoc>,
  param: string,
  kind: string,
  refs: Ref<unknown>[],
  principal: Principal,
): Promise<void> {
  const ids = refs.filter((ref): ref is number => typeof ref === 'number');
  if (ids.length === 0) return;
  const found = await store.getMany(ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const claim = new Set(missing).size === 1 ? `is not ${withArticle(kind)} ID` : `are not ${kind} IDs`;
    throw new ValidationError({ [param]: `${listed(missing)} ${claim}` });
  }
  assertLinkable(found, param, kind, principal);
}

/** The records in `found` may be linked by `principal` (else 403) and are not in the trash (else 400). */
function assertLinkable(
  found: ReadonlyMap<number, StoredRecord<BaseDoc>>,
  param: string,
  kind: string,
  principal: Principal,
): void {
  const ids = [...found.keys()];
  const ownership = (id: number) => recordOwnership(found.get(id)!);
  const unreadable = ids.filter((id) => !mayLink(principal, ownership(id)));
  if (unreadable.length > 0)
    throw new ForbiddenError(
      'rest_forbidden',
      `You may not link ${kind} ${listed(unreadable)}: only published ${kind}s and your own.`,
    );
  const trashed = ids.filter((id) => ownership(id).status === 'trash');
  if (trashed.length > 0) {
    const claim =
      new Set(trashed).size === 1
        ? `is ${withArticle(`trashed ${kind}`)}: restore it`
        : `are trashed ${kind}s: restore them`;
    throw new ValidationError({ [param]: `${listed(trashed)} ${claim} before linking` });
  }
}

/**
 * An event's `post_parent` follows the link rules: an event the caller may link, not in the trash.
 * A missing parent is left to the hierarchy check, which names what the ID is.
 */
export async function checkParentLink(services: Services, principal: Principal, id: number): Promise<void> {
  const parent = await services.stores.events.get(id);
  if (parent) assertLinkable(new Map([[id, parent as StoredRecord<BaseDoc>]]), 'post_parent', 'event', principal);
}

/** Inline records are created as their own create route would: same roles, same statuses. */
function authorizeInline<W extends object>(kind: RecordKind, principal: Principal, refs: Ref<W>[]): Ref<W>[] {
  return refs.map((ref) =>
    typeof ref === 'number' ? ref : applyVerdict(decideCreate(kind, principal, writeRequestOf(ref)), ref),
  );
}

/** An ID to link, or the planned content of a record to create inline and link. */
type Staged<D> = number | ContentPlan<D>;

/**
 * Builds the content of each inline record before anything is written (its kind's own rules),
 * naming a bad field inside the parameter as joi does: `venue.geo_lng`, `organizer[1].author`.
 */
async function stageInline<D extends BaseDoc, W extends object>(
  services: Services,
  ctx: AppContext,
  def: ResourceDefinition<D, W>,
  sent: LinkInput<W>,
  refs: Ref<W>[],
): Promise<Staged<D>[]> {
  const staged: Staged<D>[] = [];
  for (const [index, ref] of refs.entries()) {
    if (typeof ref === 'number') {
      staged.push(ref);
      continue;
    }
    const path = Array.isArray(sent) ? `${def.kind}[${index}]` : def.kind;
    try {
      await assertKnownAuthor(services, writeRequestOf(ref).author, ctx.state.principal);
      staged.push(await def.planContent(services, ctx, ref, null));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const messages = Object.entries(err.params).map(([field, message]) => `${path}.${field}: ${message}`);
      throw new ValidationError({ [def.kind]: messages.join('; ') });
    }
  }
  return staged;
}

async function linkAll<D extends BaseDoc>(
  services: Services,
  ctx: AppContext,
  def: ResourceDefinition<D>,
  staged: Staged<D>[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const ref of staged) {
    const id =
      typeof ref === 'number' ? ref : (await def.store(services).create(ctx.state.language, await ref.commit())).id;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The links one parameter (`venue` or `organizer`) sends: IDs checked, inline records staged. */
async function stageLinks<D extends BaseDoc, W extends object>(
  services: Services,
  ctx: AppContext,
  kind: 'venue' | 'organizer',
  def: ResourceDefinition<D, W>,
  sent: LinkInput<W>,
  refs: Ref<W>[],
): Promise<Staged<D>[]> {
  await checkIds(storeOf(services.stores, kind), kind, kind, refs, ctx.state.principal);
  return stageInline(services, ctx, def, sent, refs);
}

/**
 * Resolves the `venue` and `organizer` parameters of an event write (CONTRACT part 4): IDs must
 * be venues / organizers (else 400 naming the parameter) the caller may link (published or its
 * own, editors any: else 403); inline objects follow the create rules of their kind (a
 * contributor's are pending) and are created and linked only by `commit()`, once every other
 * check of the write has passed.
 */
export async function resolveLinks(
  services: Services,
  ctx: AppContext,
  input: EventWriteInput,
): Promise<ContentPlan<Pick<EventDoc, LinkField>>> {
  const { principal } = ctx.state;
  const venueRefs = input.venue === undefined ? undefined : authorizeInline('venue', principal, refsOf(input.venue));
  const organizerRefs =
    input.organizer === undefined ? undefined : authorizeInline('organizer', principal, refsOf(input.organizer));
  const [venues, organizers] = await checkEach([
    () => venueRefs && stageLinks(services, ctx, 'venue', venueDefinition, input.venue!, venueRefs),
    () => organizerRefs && stageLinks(services, ctx, 'organizer', organizerDefinition, input.organizer!, organizerRefs),
  ] as const);
  return {
    async commit() {
      const out: Partial<Pick<EventDoc, LinkField>> = {};
      if (venues) out.venues = await linkAll(services, ctx, venueDefinition, venues);
      if (organizers) out.organizers = await linkAll(services, ctx, organizerDefinition, organizers);
      return out;
    },
  };
}
