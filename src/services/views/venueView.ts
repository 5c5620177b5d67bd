import type { Language } from '../../../config';
import type { Services } from '../container';
import type { StoredRecord } from '../../storage/storedRecord';
import type { VenueDoc } from '../../storage/stores';
import { presentEnvOf } from '../../presenters/environmentOf';
import { presentVenue } from '../../presenters/venue';

/** RecordView of venues: nothing to embed, so a plain map over the presenter. */
export async function viewVenues(
  services: Services,
  records: StoredRecord<VenueDoc>[],
  lang: Language,
): Promise<Record<string, unknown>[]> {
  const env = presentEnvOf(services.config);
  return records.map((record) => presentVenue(record, lang, env));
}
