import { language, type LanguageInput } from '../../http/params';
import { inputSchema, withKeys, type InputSchema } from '../../http/route';
import type { AppContext } from '../../http/types';
import type { Services } from '../../services/container';
import { viewOf } from '../../services/views/recordViews';
import type { RecordStore } from '../../storage/recordStore';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import { siblingStores } from '../../storage/stores';
import type { RecordKind } from '../../domain/kinds';
import type { ChangeMark } from '../../storage/changeMarks';
import type { NoInput, ResourceDefinition } from './definition';

/** A resource's definition with the services its routes run on. */
export interface Resource<D extends BaseDoc, W extends object = any, R extends object = any> {
  services: Services;
  def: ResourceDefinition<D, W, R>;
  store: RecordStore<D>;
}

export function resourceOf<D extends BaseDoc, W extends object, R extends object>(
  services: Services,
  def: ResourceDefinition<D, W, R>,
): Resource<D, W, R> {
  return { services, def, store: def.store(services) };
}

/** The parameters of a create or an update: the definition's `writeSchema` and the language. */
export function writeInput<D extends BaseDoc, W extends object>(res: Resource<D, W>): InputSchema<W & LanguageInput> {
  return withKeys<W, LanguageInput>(res.def.writeSchema, { i18n_language: language() });
}

/** The parameters of a single read or delete: the definition's `readSchema` and the language. */
export function readInput<D extends BaseDoc, R extends object>(
  res: Resource<D, any, R>,
): InputSchema<R & LanguageInput> {
  const base = res.def.readSchema ?? (inputSchema<NoInput>()({}) as InputSchema<R>);
  return withKeys<R, LanguageInput>(base, { i18n_language: language() });
}

/**
 * Embedded terms' counts come from the index when it is current: counting costs a pass over every
 * event. `marks`: those of every kind the record embeds, read from the database just before.
 */
export async function present<D extends BaseDoc>(
  res: Resource<D>,
  record: StoredRecord<D>,
  ctx: AppContext,
  marks?: ReadonlyMap<RecordKind, ChangeMark>,
): Promise<Record<string, unknown>> {
  const { services, def } = res;
  const lang = ctx.state.language;
  const [presented] = await viewOf(def.kind)(services, [record], lang, { embeddedCounts: 'index-if-current', marks });
  const body = def.visibleTo ? def.visibleTo(presented!, ctx.state.principal) : presented!;
  return def.decorateSingle ? def.decorateSingle(services, record, body, lang) : body;
}

/** The kind sharing this kind's ID counter that holds record `id`, if any (a wrong-kind ID). */
export async function otherKindOf<D extends BaseDoc>(res: Resource<D>, id: number): Promise<RecordKind | undefined> {
  for (const sibling of siblingStores(res.services.stores, res.def.kind))
    if (await sibling.exists(id)) return sibling.kind;
  return undefined;
}

/** Runs `task` holding the tree lock when records of the kind form a tree. */
export const inTree = <D extends BaseDoc, T>(res: Resource<D>, task: () => Promise<T>): Promise<T> =>
  res.store.tree ? res.store.tree.hold(task) : task();
