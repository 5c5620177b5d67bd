import type { Language } from '../../config';
import { CREATE_DEFAULTS } from '../../src/api/events/definition';
import type { Services } from '../../src/services/container';
import type { EventDoc } from '../../src/storage/stores';
import { testWorld } from './harness';

/**
 * A COMPLETE event written straight to storage (bypassing HTTP), published a week from now with
 * the API's create defaults: the worker cannot index incomplete ones.
 */
export function storeEventIn(services: Services, lang: Language, fields: Partial<EventDoc> & { title: string }) {
  const start = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  return services.stores.events.create(lang, {
    status: 'publish',
    author: 0,
    date: new Date(),
    description: null,
    excerpt: null,
    image: null,
    start,
    end: new Date(start.getTime() + 2 * 3600 * 1000),
    timezone: 'UTC',
    all_day: false,
    ...CREATE_DEFAULTS,
    ...fields,
  });
}

/** storeEventIn the test world's services. */
export function storeEvent(lang: Language, fields: Partial<EventDoc> & { title: string }) {
  return storeEventIn(testWorld().services, lang, fields);
}
