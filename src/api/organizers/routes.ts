import type { RequestContext, RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import type { StoredRecord } from '../../storage/storedRecord';
import type { OrganizerDoc, PostDoc } from '../../storage/stores';
import { clearable, postContent, postContext } from '../posts/postContent';
import { resourceRoutes } from '../resource';
import { ready, type ResourceDefinition } from '../resourceDefinition';
import { ORGANIZER_PLAIN_FIELDS, ORGANIZER_REQUIRED_ON_CREATE, organizerWriteSchema } from './schema';

type Input = Record<string, unknown>;

function toOrganizerContent(
  services: Services,
  ctx: RequestContext<Input>,
  input: Input,
  existing: StoredRecord<OrganizerDoc> | null,
): Partial<OrganizerDoc> {
  return {
    ...postContent(input, existing as StoredRecord<PostDoc> | null, postContext(services, ctx, 'organizer')),
    ...clearable(input, ORGANIZER_PLAIN_FIELDS),
  } as Partial<OrganizerDoc>;
}

export const organizerDefinition: ResourceDefinition<OrganizerDoc> = {
  kind: 'organizer',
  store: (services) => services.stores.organizers,
  writeSchema: organizerWriteSchema,
  requiredOnCreate: ORGANIZER_REQUIRED_ON_CREATE,
  posts: true,
  planContent: ready(toOrganizerContent),
  onPermanentDelete: async (services, id) => {
    await services.stores.events.unlinkEverywhere('organizers', id);
  },
};

/** Organizer routes: CRUD by ID and by slug (interface.md 4.4). */
export function organizerRoutes(services: Services): RouteSpec[] {
  return resourceRoutes(services, organizerDefinition);
}
