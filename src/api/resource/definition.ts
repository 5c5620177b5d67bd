import type { Language } from '../../../config';
import type { AppContext, RequestContext } from '../../http/types';
import type { InputSchema } from '../../http/route';
import type { Principal } from '../../domain/principal';
import type { Services } from '../../services/container';
import type { RecordStore } from '../../storage/recordStore';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import type { RecordKind } from '../../domain/kinds';

/** Input of a route that takes no parameter of its own. */
export type NoInput = Record<never, never>;

/**
 * What a resource folder supplies; the generic CRUD routes (./routes.ts) do the rest. `W` is the
 * write input (the body of a create or an update), `R` the extra input of single reads and deletes.
 */
export interface ResourceDefinition<D extends BaseDoc, W extends object = any, R extends object = any> {
  /** Also the name summaries use ("an event"); the paths use its plural. */
  kind: RecordKind;
  store(services: Services): RecordStore<D>;
  /** Write fields (all optional; `required` is applied on create via `requiredOnCreate`). */
  writeSchema: InputSchema<W>;
  requiredOnCreate: (keyof W & string)[];
  /** Extra parameters of single reads/deletes (e.g. an event's `password`). */
  readSchema?: InputSchema<R>;
  /** Addressable by slug (events, venues, organizers) and trashed before deletion (posts). */
  posts: boolean;
  /**
   * Checks validated input and turns it into stored content (resolving links, deriving fields);
   * writes the content needs (inline venues, new terms) wait for the plan's `commit()`.
   */
  planContent(services: Services, ctx: AppContext, input: W, existing: StoredRecord<D> | null): Promise<ContentPlan<D>>;
  /** Removes every reference to a permanently deleted record. */
  onPermanentDelete?(services: Services, id: number): Promise<void>;
  /** Gives a permanently deleted record's children another parent (under the tree lock, before it goes). */
  reparentChildren?(services: Services, id: number): Promise<void>;
  /** Checks beyond status visibility on single reads (e.g. event passwords). */
  authorizeRead?(ctx: RequestContext<R>, record: StoredRecord<D>): Promise<void>;
  /** The presented record as `principal` may see it (e.g. an event's embedded links it may read). */
  visibleTo?(body: Record<string, unknown>, principal: Principal): Record<string, unknown>;
  /**
   * Kinds whose change marks a single read depends on besides its own record: what it embeds
   * (an event's venues, organizers and terms), or what its counts count (a term: its own kind's
   * mark, which an event's change of its terms bumps). See src/routes/readValidator.ts.
   */
  readDependsOn?: readonly RecordKind[];
  /**
   * Whether a single read of `record` changes with the time, not only with the records it is made
   * of (a series' next occurrences): its JSON is then made afresh on every read, not kept by tag,
   * and its validator holds for the minute (readValidator.ts).
   */
  readChangesWithTime?(record: StoredRecord<D>): boolean;
  /** Adds single-read-only fields (e.g. an event's json_ld). */
  decorateSingle?(
    services: Services,
    record: StoredRecord<D>,
    body: Record<string, unknown>,
    lang: Language,
  ): Record<string, unknown>;
}

/** Content checked and ready to write once `commit()` has made the records it links to. */
export interface ContentPlan<D> {
  commit(): Promise<Partial<D>>;
}

/** `planContent` for content that needs no other write: built (and checked) at once, committed as is. */
export function ready<D extends BaseDoc, W extends object>(
  toContent: (...args: Parameters<ResourceDefinition<D, W>['planContent']>) => Partial<D>,
): ResourceDefinition<D, W>['planContent'] {
  return async (...args) => {
    const content = toContent(...args);
    return { commit: async () => content };
  };
}
