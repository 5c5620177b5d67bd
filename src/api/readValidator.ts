import type { AppContext } from '../http/types';
import type { Principal } from '../domain/principal';
import { weakEtag, type Validator } from '../http/caching';
import type { RecordKind } from '../domain/kinds';
import type { ChangeMark } from '../storage/changeMarks';
import type { BaseDoc, StoredRecord } from '../storage/storedRecord';

/** How long an answer that changes with the time (a series' next occurrences) keeps its validator. */
export const TIMELY_VALIDATOR_MS = 60_000;

/**
 * The validator of a single read (or a feed of one event), made from what it is made of without
 * presenting it: the record's documents (each write sets `modifiedAt` on all of them), the change
 * marks of the kinds it embeds (their records, or the counts they show, changed), and what else
 * shapes the answer: language, path prefix, caller (what it may see of the links), `format`.
 * `Last-Modified` is the latest of those changes. An answer that also changes with the time
 * (`timely`) is made of the minute too: revalidated, it is at most a minute old.
 */
export function singleReadValidator(
  ctx: AppContext,
  kind: RecordKind,
  record: StoredRecord<BaseDoc>,
  marks: Map<RecordKind, ChangeMark>,
  format: string,
  principal: Principal = ctx.state.principal,
  timely = false,
): Validator {
  const docs = Object.values(record.docs).map((doc) => [doc.lang, doc.modifiedAt.getTime()]);
  const embedded = [...marks.values()].map((mark) => [mark._id, mark.n]);
  const { language, pathLanguage } = ctx.state;
  const times = [...Object.values(record.docs).map((doc) => doc.modifiedAt), ...[...marks.values()].map((m) => m.at)];
  const minute = timely ? [Math.floor(Date.now() / TIMELY_VALIDATOR_MS) * TIMELY_VALIDATOR_MS] : [];
  return {
    etag: weakEtag([
      format,
      kind,
      record.id,
      language,
      pathLanguage,
      principal.role,
      principal.userId,
      docs,
      embedded,
      ...minute,
    ]),
    lastModified: new Date(Math.max(...times.map((time) => time.getTime()), ...minute)),
  };
}
