import type { RouteSpec } from '../../http/types';
import type { Services } from '../../services/container';
import { resourceRoutes } from '../resource/routes';
import { eventDefinition } from './definition';
import { negotiatingCalendar, sendEventFeed } from './feed';

/** Event routes: CRUD by ID and by slug (interface.md 4.2); a read by ID answers iCalendar too (`Accept`). */
export function eventRoutes(services: Services): RouteSpec[] {
  return resourceRoutes(services, eventDefinition).map((route) =>
    route.path === '/events/:id' && route.methods.includes('GET')
      ? negotiatingCalendar(route, (ctx) => sendEventFeed(ctx, services))
      : route,
  );
}
