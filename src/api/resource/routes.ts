import type { RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import type { BaseDoc } from '../../storage/storedRecord';
import { byId, bySlug, type Address } from './address';
import { createRoute } from './create';
import type { ResourceDefinition } from './definition';
import { deleteRoute } from './delete';
import { readRoute } from './read';
import { resourceOf } from './resource';
import { updateRoute } from './update';

/** The generic CRUD routes of one resource: by ID, and by slug for posts (interface.md part 4). */
export function resourceRoutes<D extends BaseDoc, W extends object, R extends object>(
  services: Services,
  def: ResourceDefinition<D, W, R>,
): RouteSpec[] {
  const res = resourceOf(services, def);
  const single = <A>(address: Address<D, A>) => [
    readRoute(res, address),
    updateRoute(res, address),
    deleteRoute(res, address),
  ];
  return [createRoute(res), ...single(byId(res)), ...(def.posts ? single(bySlug(res)) : [])];
}
