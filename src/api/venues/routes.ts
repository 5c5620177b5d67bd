import type { RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import { resourceRoutes } from '../resource/routes';
import { venueDefinition } from './definition';

/** Venue routes: CRUD by ID and by slug (interface.md 4.3). */
export function venueRoutes(services: Services): RouteSpec[] {
  return resourceRoutes(services, venueDefinition);
}
