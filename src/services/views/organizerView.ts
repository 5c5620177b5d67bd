import type { Language } from '../../../config';
import type { Services } from '../container';
import type { StoredRecord } from '../../storage/storedRecord';
import type { OrganizerDoc } from '../../storage/stores';
import { presentEnvOf } from '../../presenters/environmentOf';
import { presentOrganizer } from '../../presenters/organizer';

/** RecordView of organizers: nothing to embed, so a plain map over the presenter. */
export async function viewOrganizers(
  services: Services,
  records: StoredRecord<OrganizerDoc>[],
  lang: Language,
): Promise<Record<string, unknown>[]> {
  const env = presentEnvOf(services.config);
  return records.map((record) => presentOrganizer(record, lang, env));
}
