import type { Language } from '../../../config';
import type { RecordKind } from '../../domain/kinds';

type ApiRecord = Record<string, unknown>;

/** Presented records kept per kind: past this many, the kept ones are dropped and presented again as asked. */
export const MAX_KEPT_EMBEDDED = 5_000;

/** A record presented for embedding: null when there is none to embed (missing or trashed). */
export interface Embeddable {
  body: ApiRecord | null;
  /** False for a record a write holds: it may be given up without a change, so without a bump. */
  keep: boolean;
}

interface Generation {
  /** The kind's change mark (ChangeMark.n; 0 before its first change) the records were read at. */
  mark: number;
  /** By `${lang}:${id}`. */
  presented: Map<string, ApiRecord | null>;
}

/**
 * The records events embed (venues, organizers, terms with their counts), presented per language
 * and kept per kind while the kind's change mark stays where it was when they were read: every
 * write of a record of the kind, and every change of what its count counts, bumps that mark once
 * written (src/storage/changeMarks.ts). A read that first reads the marks from the database, then
 * asks here with them, reflects every write answered before, in any process (CONTRACT part 8),
 * without reading or presenting those records again.
 */
export class EmbeddedByMark {
  private readonly generations = new Map<RecordKind, Generation>();

  async get(
    kind: RecordKind,
    ids: number[],
    lang: Language,
    mark: number,
    present: (ids: number[]) => Promise<Map<number, Embeddable>>,
  ): Promise<Map<number, ApiRecord>> {
    let generation = this.generations.get(kind);
    if (!generation || mark > generation.mark) {
      generation = { mark, presented: new Map() };
      this.generations.set(kind, generation);
    }
    // A read holding an older mark than the kept records (read before a write that a later read
    // has seen) presents what it reads now and keeps nothing.
    const kept = mark === generation.mark ? generation : null;
    const key = (id: number) => `${lang}:${id}`;
    const missing = kept ? ids.filter((id) => !kept.presented.has(key(id))) : ids;
    const fresh = missing.length > 0 ? await present(missing) : new Map<number, Embeddable>();
    if (kept && kept === this.generations.get(kind)) {
      if (kept.presented.size + missing.length > MAX_KEPT_EMBEDDED) kept.presented.clear();
      for (const id of missing) {
        const found = fresh.get(id);
        if (!found || found.keep) kept.presented.set(key(id), found?.body ?? null);
      }
    }
    const out = new Map<number, ApiRecord>();
    for (const id of ids) {
      const body = fresh.has(id) ? fresh.get(id)!.body : kept?.presented.get(key(id));
      if (body) out.set(id, body);
    }
    return out;
  }
}
