import type { RouteSpec } from '../http/types';
import type { Services } from '../services/container';
import { namespaceRoutes } from './namespace/routes';
import { docRoutes } from './namespace/docRoutes';
import { venueRoutes } from './venues/routes';
import { organizerRoutes } from './organizers/routes';
import { categoryRoutes } from './categories/routes';
import { tagRoutes } from './tags/routes';
import { eventRoutes } from './events/routes';
import { eventListRoutes } from './events/list';
import { postListRoutes } from './posts/list';
import { termListRoutes } from './terms/list';
import { subscriptionRoutes } from './subscriptions/routes';

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
    ...postListRoutes(services, 'venue'),
    ...postListRoutes(services, 'organizer'),
    ...termListRoutes(services, 'category'),
    ...termListRoutes(services, 'tag'),
    ...subscriptionRoutes(services),
  );
  return table;
}
