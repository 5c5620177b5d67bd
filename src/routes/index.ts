import type { RouteSpec } from '../http/types';
import type { Services } from '../services';
import { namespaceRoutes } from './namespace/routes';
import { docRoutes } from './namespace/docRoutes';
import { venueRoutes } from './venues/routes';
import { organizerRoutes } from './organizers/routes';
import { categoryRoutes } from './categories/routes';
import { tagRoutes } from './tags/routes';
import { eventRoutes } from './events/routes';
import { eventListRoutes } from './events/list';
import { venueListRoutes } from './venues/list';
import { organizerListRoutes } from './organizers/list';
import { categoryListRoutes } from './categories/list';
import { tagListRoutes } from './tags/list';

/** The whole route table of the `calendar/events/v1` namespace. */
export function allRoutes(services: Services): RouteSpec[] {
  const table: RouteSpec[] = [];
  table.push(
    ...namespaceRoutes(table, services.config),
    ...docRoutes(table, services.config),
    // Resource route tables, one line each:
    ...eventRoutes(services),
    ...venueRoutes(services),
    ...organizerRoutes(services),
    ...categoryRoutes(services),
    ...tagRoutes(services),
    ...eventListRoutes(services),
    ...venueListRoutes(services),
    ...organizerListRoutes(services),
    ...categoryListRoutes(services),
    ...tagListRoutes(services),
  );
  return table;
}
