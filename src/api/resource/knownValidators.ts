import type { Validator } from '../../http/caching';
import type { AppContext } from '../../http/types';
import { ExpiringCache } from '../../lib/expiringCache';
import type { RecordKind } from '../../domain/kinds';
import type { ChangeMark } from '../../storage/changeMarks';

/** Validators kept per read route: past this many, the oldest go first. */
export const MAX_KNOWN_VALIDATORS = 10_000;

interface Known {
  /** The change marks (counts) of the watched kinds read before the record was. */
  marks: string;
  validator: Validator;
}

/**
 * The validators single reads answered, by what addresses the record and shapes the answer, each
 * with the change marks of the kinds it watches (its own and those it embeds) as read before the
 * record was. While those marks stay the same, no record of those kinds changed, so the validator
 * still holds and a revalidation is answered from the marks alone, without reading the record
 * (the marks are read from the database on every read: any process's writes show at once).
 */
export class KnownValidators {
  private readonly known = new ExpiringCache(Number.POSITIVE_INFINITY, MAX_KNOWN_VALIDATORS);

  constructor(private readonly watched: readonly RecordKind[]) {}

  /** `address`: how the request names the record (`id:12`, `slug:jazz-night`). */
  keyOf(ctx: AppContext, address: string, format: string): string {
    const { language, pathLanguage, principal } = ctx.state;
    return JSON.stringify([address, format, language, pathLanguage, principal.role, principal.userId]);
  }

  get(key: string, marks: ReadonlyMap<RecordKind, ChangeMark>): Validator | undefined {
    const known = this.known.get<Known>(key);
    return known && known.marks === this.signature(marks) ? known.validator : undefined;
  }

  set(key: string, marks: ReadonlyMap<RecordKind, ChangeMark>, validator: Validator): void {
    this.known.set(key, { marks: this.signature(marks), validator } satisfies Known);
  }

  private signature(marks: ReadonlyMap<RecordKind, ChangeMark>): string {
    return this.watched.map((kind) => marks.get(kind)?.n ?? 0).join(',');
  }
}
