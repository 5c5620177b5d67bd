import type { Language } from '../../../config';
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
    const counts = await publishedEventCounts(
      services.stores.events,
      field,
      records.map((record) => record.id),
    );
    const env = presentEnvOf(services.config);
    return records.map((record) => presentTerm(kind, record, lang, env, counts.get(record.id) ?? 0) as unknown as Record<string, unknown>);
  };
}

export const viewCategories: RecordView = termView('category', 'categories');
export const viewTags: RecordView = termView('tag', 'tags');
