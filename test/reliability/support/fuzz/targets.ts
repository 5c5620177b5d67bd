import type { Services } from '../../../../src/services/container';
import { call } from '../http';
import { eventBody } from '../writes';
import { ROOT, type Targets } from './requests';

export const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;

const SEED_BODIES: Record<(typeof KINDS)[number], (n: number) => Record<string, unknown>> = {
  events: (n) => eventBody(`Fuzz seed event ${n}`, { description: '<p>seed</p>' }),
  venues: (n) => ({ venue: `Fuzz seed hall ${n}` }),
  organizers: (n) => ({ organizer: `Fuzz seed crew ${n}` }),
  categories: (n) => ({ name: `Fuzz seed category ${n}` }),
  tags: (n) => ({ name: `Fuzz seed tag ${n}` }),
};

/** Fills `targets` with live records of every kind: at least two each, recreated when fuzzed writes removed them. */
export async function refreshTargets(
  targets: Targets,
  services: Services,
  baseUrl: string,
  key: string,
): Promise<void> {
  for (const plural of KINDS) {
    const live = () =>
      services.stores[plural].docs
        .find({ status: { $ne: 'trash' } })
        .sort({ id: -1 })
        .limit(30)
        .toArray();
    let docs = await live();
    for (let n = docs.length; n < 2; n++) {
      const res = await call(baseUrl, 'POST', `${ROOT}/${plural}`, SEED_BODIES[plural](n), { key });
      if (res.status !== 201) throw new Error(`could not seed ${plural}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    if (docs.length < 2) docs = await live();
    targets.ids[plural] = [...new Set(docs.map((d) => d.id))];
    targets.slugs[plural] = [...new Set(docs.map((d) => d.slug))];
  }
  await refreshSeries(targets, services, baseUrl, key);
  const subscriptions = services.webhooks.subscriptions.docs;
  for (let n = await subscriptions.countDocuments(); n < 2; n++) {
    const body = { url: `https://partner.example/fuzz/${n}`, filters: { search: 'fuzz' } };
    const res = await call(baseUrl, 'POST', `${ROOT}/subscriptions`, body, { key });
    if (res.status !== 201) throw new Error(`could not seed subscriptions: ${res.status} ${JSON.stringify(res.body)}`);
  }
  targets.ids.subscriptions = (await subscriptions.find({}).sort({ _id: -1 }).limit(30).toArray()).map((d) => d._id);
}

/** A recurring event among the targets, and its occurrences' recurrence IDs. */
async function refreshSeries(targets: Targets, services: Services, baseUrl: string, key: string): Promise<void> {
  const live = () =>
    services.stores.events.docs.findOne(
      { status: { $ne: 'trash' }, 'recurrence.0': { $exists: true } },
      { sort: { id: -1 } },
    );
  if (!(await live())) {
    const body = eventBody('Fuzz seed series', { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=8'] });
    const res = await call(baseUrl, 'POST', `${ROOT}/events`, body, { key });
    if (res.status !== 201) throw new Error(`could not seed a series: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const series = (await live())!;
  targets.ids.events = [...new Set([series.id, ...(targets.ids.events ?? [])])];
  const read = await call(baseUrl, 'GET', `${ROOT}/events/${series.id}`, undefined, { key });
  const next = (read.body as { next_occurrences?: { recurrence_id: string }[] }).next_occurrences ?? [];
  targets.recurrenceIds = next.map((occurrence) => occurrence.recurrence_id);
}
