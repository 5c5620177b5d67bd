import { ValidationError } from '../../domain/errors';
import type { RequestContext, RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import type { StoredRecord } from '../../storage/storedRecord';
import { inLanguage } from '../../storage/storedRecord';
import type { PostDoc, VenueDoc } from '../../storage/stores';
import { clearable, postContent, postContext } from '../posts/postContent';
import { resourceRoutes } from '../resource';
import { ready, type ResourceDefinition } from '../resourceDefinition';
import { VENUE_PLAIN_FIELDS, VENUE_REQUIRED_ON_CREATE, venueWriteSchema } from './schema';

type Input = Record<string, unknown>;

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
  ctx: RequestContext<Input>,
  input: Input,
  existing: StoredRecord<VenueDoc> | null,
): Partial<VenueDoc> {
  const content = {
    ...postContent(input, existing as StoredRecord<PostDoc> | null, postContext(services, ctx, 'venue')),
    ...clearable(input, VENUE_PLAIN_FIELDS),
  } as Partial<VenueDoc>;
  assertCoordinatePair(content, existing);
  return content;
}

export const venueDefinition: ResourceDefinition<VenueDoc> = {
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

/** Venue routes: CRUD by ID and by slug (interface.md 4.3). */
export function venueRoutes(services: Services): RouteSpec[] {
  return resourceRoutes(services, venueDefinition);
}
