import { ValidationError } from '../../domain/errors';
import type { AppContext } from '../../http/types';
import type { Services } from '../../services/container';
import { inLanguage, type StoredRecord } from '../../storage/storedRecord';
import type { VenueDoc } from '../../storage/stores';
import { clearable, postContent, postContext } from '../posts/postContent';
import { ready, type ResourceDefinition } from '../resource/definition';
import { VENUE_PLAIN_FIELDS, VENUE_REQUIRED_ON_CREATE, venueWriteSchema, type VenueWriteInput } from './schema';

/** A point is both coordinates or neither: a lone latitude locates nothing. */
function assertCoordinatePair(content: Partial<VenueDoc>, existing: StoredRecord<VenueDoc> | null): void {
  const current = existing ? inLanguage(existing, existing.originalLang) : undefined;
  const lat = content.geo_lat !== undefined ? content.geo_lat : (current?.geo_lat ?? null);
  const lng = content.geo_lng !== undefined ? content.geo_lng : (current?.geo_lng ?? null);
  if ((lat === null) === (lng === null)) return;
  const missing = lat === null ? 'geo_lat' : 'geo_lng';
  throw new ValidationError({ [missing]: 'geo_lat and geo_lng must be set (or cleared) together' });
}

function toVenueContent(
  services: Services,
  ctx: AppContext,
  input: VenueWriteInput,
  existing: StoredRecord<VenueDoc> | null,
): Partial<VenueDoc> {
  const content = {
    ...postContent(input, existing, postContext(services, ctx, 'venue')),
    ...clearable(input, VENUE_PLAIN_FIELDS),
  } as Partial<VenueDoc>;
  assertCoordinatePair(content, existing);
  return content;
}

/** Venues (interface.md 4.3): posts, unlinked from every event when deleted for good. */
export const venueDefinition: ResourceDefinition<VenueDoc, VenueWriteInput> = {
  kind: 'venue',
  store: (services) => services.stores.venues,
  writeSchema: venueWriteSchema,
  requiredOnCreate: VENUE_REQUIRED_ON_CREATE,
  posts: true,
  planContent: ready(toVenueContent),
  onPermanentDelete: async (services, id) => {
    await services.stores.events.unlinkEverywhere('venues', id);
  },
};
