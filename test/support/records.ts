import type { Language } from '../../config';
import type { EventDoc } from '../../src/storage/stores';
import { testWorld } from './harness';

/** A complete event written straight to storage (bypassing HTTP), for tests of other kinds. */
export async function storeEvent(lang: Language, fields: Partial<EventDoc> & { title: string }) {
  const start = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  return testWorld().services.stores.events.create(lang, {
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
    cost: null,
    website: null,
    show_map: null,
    show_map_link: null,
    hide_from_listings: false,
    sticky: false,
    featured: false,
    ticketed: false,
    post_parent: 0,
    passwordHash: null,
    venues: [],
    organizers: [],
    categories: [],
    tags: [],
    ...fields,
  });
}
