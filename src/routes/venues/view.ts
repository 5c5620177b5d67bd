import type { Language } from '../../../config';
import type { Services } from '../../services';
import type { StoredRecord } from '../../storage/storedRecord';
import type { VenueDoc } from '../../storage/stores';
import { presentEnvOf } from '../posts/presentEnv';
import { presentVenue } from './presenter';

/** RecordView of venues: nothing to embed, so a plain map over the presenter. */
export async function viewVenues(
  services: Services,
  records: StoredRecord<VenueDoc>[],
  lang: Language,
): Promise<Record<string, unknown>[]> {
  const env = presentEnvOf(services.config);
  return records.map((record) => presentVenue(record, lang, env));
}
