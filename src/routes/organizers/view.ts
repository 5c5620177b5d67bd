import type { Language } from '../../../config';
import type { Services } from '../../services';
import type { StoredRecord } from '../../storage/storedRecord';
import type { OrganizerDoc } from '../../storage/stores';
import { presentEnvOf } from '../posts/presentEnv';
import { presentOrganizer } from './presenter';

/** RecordView of organizers: nothing to embed, so a plain map over the presenter. */
export async function viewOrganizers(
  services: Services,
  records: StoredRecord<OrganizerDoc>[],
  lang: Language,
): Promise<Record<string, unknown>[]> {
  const env = presentEnvOf(services.config);
  return records.map((record) => presentOrganizer(record, lang, env));
}
