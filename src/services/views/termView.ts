import type { Language } from '../../../config';
import { eachOnceInBatch } from './batchCache';
import { indexedTermCounts } from '../queries/indexedTermCounts';
import type { Services } from '../container';
import type { StoredRecord } from '../../storage/storedRecord';
import type { TermDoc } from '../../storage/stores';
import { publishedEventCounts, type TermField } from '../../storage/termQueries';
import { presentEnvOf } from '../../presenters/environmentOf';
import type { RecordView, ViewOptions } from './recordViews';
import { presentTerm } from '../../presenters/term';
import type { TermKind } from '../../domain/kinds';

/**
 * Published-event counts: exact (an aggregation over the events) by default; otherwise as the
 * search index holds them (`options.counts`, see ViewOptions), exact for the terms it lacks.
 */
async function eventCounts(
  services: Services,
  kind: TermKind,
  field: TermField,
  ids: number[],
  lang: Language,
  options: ViewOptions,
) {
  const exact = (missing: number[]) =>
    eachOnceInBatch(
      services,
      `published-event-count:${field}`,
      missing,
      (todo) => publishedEventCounts(services.stores.events, field, todo),
      0,
    );
  if (options.counts === undefined || options.counts === 'exact') return exact(ids);
  const indexed = await indexedTermCounts(services, kind, ids, lang, {
    realtime: options.counts !== 'searchable-index',
    shared: options.counts === 'index',
  });
  const missing = ids.filter((id) => !indexed.has(id));
  if (missing.length > 0) for (const [id, count] of await exact(missing)) indexed.set(id, count);
  return indexed;
}

function termView(kind: TermKind, field: TermField): RecordView {
  return async (services: Services, records: StoredRecord<TermDoc>[], lang: Language, options: ViewOptions = {}) => {
    const counts = await eventCounts(
      services,
      kind,
      field,
      records.map((record) => record.id),
      lang,
      options,
    );
    const env = presentEnvOf(services.config);
    return records.map((record) => presentTerm(kind, record, lang, env, counts.get(record.id) ?? 0));
  };
}

export const viewCategories: RecordView = termView('category', 'categories');
export const viewTags: RecordView = termView('tag', 'tags');
