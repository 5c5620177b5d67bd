import type { Language } from '../../../config';
import { recordOwnership } from '../../storage/recordAccess';
import type { Services } from '../container';
import { type RecordStore } from '../../storage/recordStore';
import { inLanguage, type BaseDoc, type StoredRecord } from '../../storage/storedRecord';
import type { EventDoc } from '../../storage/stores';
import { presentEnvOf } from '../../presenters/environmentOf';
import { viewOf, type ViewOptions } from './recordViews';
import { presentEvent, type EventLinks } from '../../presenters/event';
import type { RecordKind } from '../../domain/kinds';
import type { SyncQueue } from '../../storage/syncQueue';
import { isHeldNow } from '../../storage/writeClaims';
import { EmbeddedByMark, type Embeddable } from './embeddedByMark';

type LinkField = 'venues' | 'organizers' | 'categories' | 'tags';

/** The kinds an event embeds: a change of any of them can change how it reads. */
export const EMBEDDED_KINDS = ['venue', 'organizer', 'category', 'tag'] as const;

const isLive = (record: StoredRecord<BaseDoc>): boolean => recordOwnership(record).status !== 'trash';

const kept = new WeakMap<SyncQueue, EmbeddedByMark>();

/** This process's embedded records kept per mark (one per services container, whatever scope). */
function embeddedByMarkOf(services: Services): EmbeddedByMark {
  let found = kept.get(services.sync);
  if (!found) kept.set(services.sync, (found = new EmbeddedByMark()));
  return found;
}

/**
 * Where counts kept with a mark come from: exact (counted in MongoDB) when a change waits for the
 * worker now, else the index's as of its last write (not those a read shared a moment ago).
 */
async function currentCounts(services: Services): Promise<ViewOptions['counts']> {
  return (await services.sync.pendingNow()) ? 'exact' : 'index-now';
}

/**
 * RecordView of events: loads every record the events link to with one query per kind (for all
 * events at once), presents them in `lang` with their own views (`options.embeddedCounts`: where
 * the embedded terms' counts come from), and embeds those not trashed.
 */
export async function viewEvents(
  services: Services,
  records: StoredRecord<EventDoc>[],
  lang: Language,
  options: ViewOptions = {},
): Promise<Record<string, unknown>[]> {
  const idsIn = (field: LinkField) => [
    ...new Set(records.flatMap((record) => inLanguage(record, record.originalLang)[field] ?? [])),
  ];
  const ids: Record<LinkField, number[]> = {
    venues: idsIn('venues'),
    organizers: idsIn('organizers'),
    categories: idsIn('categories'),
    tags: idsIn('tags'),
  };
  // The index's term counts are current only while no change waits for the worker: reads by ID
  // reflect every write at once (CONTRACT 8). Checked once per read, beside the loads, if terms are embedded.
  const counts: Promise<ViewOptions['counts']> =
    options.embeddedCounts === 'index-if-current' && !options.marks && ids.categories.length + ids.tags.length > 0
      ? services.sync.hasPending().then((pending) => (pending ? 'exact' : 'index'))
      : Promise.resolve(options.embeddedCounts === 'searchable-index' ? 'searchable-index' : 'exact');
  const present = async <D extends BaseDoc>(
    kind: RecordKind,
    store: RecordStore<D>,
    wanted: number[],
    countsOf: () => Promise<ViewOptions['counts']>,
  ): Promise<Map<number, Embeddable>> => {
    const records = await store.getMany(wanted);
    const live = [...records.values()].filter(isLive);
    const presented = live.length === 0 ? [] : await viewOf(kind)(services, live, lang, { counts: await countsOf() });
    const now = Date.now();
    const out = new Map<number, Embeddable>(
      wanted.map((id) => [id, { body: null, keep: !isHeldNow(records.get(id), now) }]),
    );
    for (const body of presented)
      out.set(body.id as number, { body, keep: !isHeldNow(records.get(body.id as number), now) });
    return out;
  };
  const { marks } = options;
  const load = async <D extends BaseDoc>(
    kind: RecordKind,
    store: RecordStore<D>,
    field: LinkField,
  ): Promise<Map<number, Record<string, unknown>>> => {
    if (ids[field].length === 0) return new Map();
    if (!marks) {
      const presented = await present(kind, store, ids[field], () => counts);
      return new Map([...presented].flatMap(([id, { body }]) => (body ? [[id, body]] : [])));
    }
    // Kept per mark: terms' counts read now (those kept with them must be current at that mark).
    const countsNow = () => (kind === 'category' || kind === 'tag' ? currentCounts(services) : counts);
    return embeddedByMarkOf(services).get(kind, ids[field], lang, marks.get(kind)?.n ?? 0, (todo) =>
      present(kind, store, todo, countsNow),
    );
  };
  const { stores } = services;
  const [venues, organizers, categories, tags] = await Promise.all([
    load('venue', stores.venues, 'venues'),
    load('organizer', stores.organizers, 'organizers'),
    load('category', stores.categories, 'categories'),
    load('tag', stores.tags, 'tags'),
  ]);
  const links: EventLinks = { venues, organizers, categories, tags };
  const env = presentEnvOf(services.config);
  return records.map((record) => presentEvent(record, lang, env, links));
}
