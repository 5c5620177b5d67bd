import type { RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import { resourceRoutes } from '../resource/routes';
import { termDefinition } from '../terms/definition';

/** Tags by ID (interface.md part 4.6; no slug routes): create, read, update, delete. */
export function tagRoutes(services: Services): RouteSpec[] {
  return resourceRoutes(services, termDefinition('tag'));
}
