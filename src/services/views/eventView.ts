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

type LinkField = 'venues' | 'organizers' | 'categories' | 'tags';

/** The kinds an event embeds: a change of any of them can change how it reads. */
export const EMBEDDED_KINDS = ['venue', 'organizer', 'category', 'tag'] as const;

const isLive = (record: StoredRecord<BaseDoc>): boolean => recordOwnership(record).status !== 'trash';

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
    options.embeddedCounts === 'index-if-current' && ids.categories.length + ids.tags.length > 0
      ? services.sync.hasPending().then((pending) => (pending ? 'exact' : 'index'))
      : Promise.resolve(options.embeddedCounts === 'searchable-index' ? 'searchable-index' : 'exact');
  const load = async <D extends BaseDoc>(
    kind: RecordKind,
    store: RecordStore<D>,
    field: LinkField,
  ): Promise<Map<number, Record<string, unknown>>> => {
    const live = ids[field].length === 0 ? [] : [...(await store.getMany(ids[field])).values()].filter(isLive);
    const presented = live.length === 0 ? [] : await viewOf(kind)(services, live, lang, { counts: await counts });
    return new Map(presented.map((body) => [body.id as number, body]));
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
