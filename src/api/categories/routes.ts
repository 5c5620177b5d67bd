import type { RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import { resourceRoutes } from '../resource/routes';
import { termDefinition } from '../terms/definition';

/** Categories by ID (interface.md part 4.5; no slug routes): create, read, update, delete. */
export function categoryRoutes(services: Services): RouteSpec[] {
  return resourceRoutes(services, termDefinition('category'));
}
