import type { Language } from '../../../config';
import { onceInBatch } from '../../search/batchCache';
import type { Services } from '../../services';
import type { StoredRecord } from '../../storage/recordStore';
import type { TermDoc } from '../../storage/stores';
import { publishedEventCounts, type TermField } from '../../storage/termQueries';
import { presentEnvOf } from '../posts/presentEnv';
import type { RecordView } from '../views';
import { presentTerm } from './presenter';
import type { TermKind } from './schema';

function termView(kind: TermKind, field: TermField): RecordView {
  return async (services: Services, records: StoredRecord<TermDoc>[], lang: Language) => {
    const ids = records.map((record) => record.id);
    const counts = await onceInBatch(services, `published-event-counts:${field}:${[...ids].sort((a, b) => a - b).join(',')}`, () =>
      publishedEventCounts(services.stores.events, field, ids),
    );
    const env = presentEnvOf(services.config);
    return records.map((record) => presentTerm(kind, record, lang, env, counts.get(record.id) ?? 0) as unknown as Record<string, unknown>);
  };
}

export const viewCategories: RecordView = termView('category', 'categories');
export const viewTags: RecordView = termView('tag', 'tags');
