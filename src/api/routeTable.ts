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
import { occurrenceRoutes } from './events/occurrences';
import { eventFeedRoutes } from './events/feed';
import { postListRoutes } from './posts/list';
import { termListRoutes } from './terms/list';
import { suggestRoutes } from './suggest/routes';
import { changesRoutes } from './changes/routes';
import { subscriptionRoutes } from './subscriptions/routes';

/** The whole route table of the `calendar/events/v1` namespace. */
export function allRoutes(services: Services): RouteSpec[] {
  const table: RouteSpec[] = [];
  table.push(
    ...namespaceRoutes(table, services.config),
    ...docRoutes(table, services.config),
    // Feeds, lists and exports come first: `/events/{id}.ics` and `/events/export` must match
    // before `/events/:id` (whose ID check answers 404 for anything but digits).
    ...eventFeedRoutes(services),
    ...eventListRoutes(services),
    ...postListRoutes(services, 'venue'),
    ...postListRoutes(services, 'organizer'),
    ...termListRoutes(services, 'category'),
    ...termListRoutes(services, 'tag'),
    // Resource route tables, one line each:
    ...eventRoutes(services),
    ...occurrenceRoutes(services),
    ...venueRoutes(services),
    ...organizerRoutes(services),
    ...categoryRoutes(services),
    ...tagRoutes(services),
    ...suggestRoutes(services),
    ...changesRoutes(services),
    ...subscriptionRoutes(services),
  );
  return table;
}
