import type { RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import { resourceRoutes } from '../resource/routes';
import { eventDefinition } from './definition';

/** Event routes: CRUD by ID and by slug (interface.md 4.2). */
export function eventRoutes(services: Services): RouteSpec[] {
  return resourceRoutes(services, eventDefinition);
}
