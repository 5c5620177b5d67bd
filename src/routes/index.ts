import type { RouteSpec } from '../http/types';
import type { Services } from '../services';
import { namespaceRoutes } from './namespace/routes';
import { venueRoutes } from './venues/routes';
import { organizerRoutes } from './organizers/routes';
import { categoryRoutes } from './categories/routes';
import { tagRoutes } from './tags/routes';

/** The whole route table of the `calendar/events/v1` namespace. */
export function allRoutes(services: Services): RouteSpec[] {
  const table: RouteSpec[] = [];
  table.push(
    ...namespaceRoutes(table, services.config),
    // Resource route tables, one line each:
    ...venueRoutes(services),
    ...organizerRoutes(services),
    ...categoryRoutes(services),
    ...tagRoutes(services),
  );
  return table;
}
