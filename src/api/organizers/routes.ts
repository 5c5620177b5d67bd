import type { RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import { resourceRoutes } from '../resource/routes';
import { organizerDefinition } from './definition';

/** Organizer routes: CRUD by ID and by slug (interface.md 4.4). */
export function organizerRoutes(services: Services): RouteSpec[] {
  return resourceRoutes(services, organizerDefinition);
}
