import type { AppContext } from '../../http/types';
import type { Services } from '../../services/container';
import type { StoredRecord } from '../../storage/storedRecord';
import type { OrganizerDoc } from '../../storage/stores';
import { clearable, postContent, postContext } from '../posts/postContent';
import { ready, type ResourceDefinition } from '../resource/definition';
import {
  ORGANIZER_PLAIN_FIELDS,
  ORGANIZER_REQUIRED_ON_CREATE,
  organizerWriteSchema,
  type OrganizerWriteInput,
} from './schema';

function toOrganizerContent(
  services: Services,
  ctx: AppContext,
  input: OrganizerWriteInput,
  existing: StoredRecord<OrganizerDoc> | null,
): Partial<OrganizerDoc> {
  return {
    ...postContent(input, existing, postContext(services, ctx, 'organizer')),
    ...clearable(input, ORGANIZER_PLAIN_FIELDS),
  } as Partial<OrganizerDoc>;
}

/** Organizers (interface.md 4.4): posts, unlinked from every event when deleted for good. */
export const organizerDefinition: ResourceDefinition<OrganizerDoc, OrganizerWriteInput> = {
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
