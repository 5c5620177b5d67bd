import { isDeepStrictEqual } from 'node:util';
import type { RecordKind } from '../domain/kinds';
import { inLanguage, type BaseDoc, type StoredRecord } from './storedRecord';

/**
 * Records a kind links to through shared fields (`[kind, field]`) whose index documents count or
 * embed it (an event's venues, organizers and terms), and the other shared fields they depend on
 * (`watched`: status, end...).
 */
export interface Dependents<D> {
  links: readonly (readonly [RecordKind, keyof D & string])[];
  watched: readonly (keyof D & string)[];
}

/**
 * The records to mark dirty after a write changed `before` into `after` (null: deleted): those
 * linked before and after, when what they depend on changed; else none. The worker also marks
 * them, from the record's previous index document, but a link that lived only between two
 * indexings of the record is in neither, and the record it named may have been indexed counting
 * this one meanwhile (so may a record linked by one deleted before its first indexing).
 */
export function dependentsToMark<D extends BaseDoc>(
  dependents: Dependents<D> | undefined,
  before: StoredRecord<D>,
  after: StoredRecord<D> | null,
): [RecordKind, number[]][] {
  if (!dependents) return [];
  const was = inLanguage(before, before.originalLang);
  const is = after ? inLanguage(after, after.originalLang) : null;
  const fields = [...dependents.watched, ...dependents.links.map(([, field]) => field)];
  if (is && fields.every((field) => isDeepStrictEqual(was[field], is[field]))) return [];
  const linked = (doc: D | null, field: keyof D & string) => (doc?.[field] as number[] | undefined) ?? [];
  return dependents.links.map(([kind, field]) => [kind, [...new Set([...linked(was, field), ...linked(is, field)])]]);
}
