import type { Language } from '../../../config';
import type { Services } from '../../services';
import { inLanguage, type BaseDoc, type RecordStore, type StoredRecord } from '../../storage/recordStore';
import type { EventDoc } from '../../storage/stores';
import { currentIndexedRecords } from '../../search/currentIndexed';
import { syncKey, type SyncKind } from '../../storage/syncQueue';
import { presentEnvOf } from '../posts/presentEnv';
import { viewOf, type ViewOptions } from '../views';
import { presentEvent, type EventLinks } from './presenter';

type LinkField = 'venues' | 'organizers' | 'categories' | 'tags';

function isLive(record: StoredRecord<BaseDoc>): boolean {
  return (inLanguage(record, record.originalLang) as BaseDoc & { status?: string }).status !== 'trash';
}

/**
 * RecordView of events: loads every record the events link to with one query per kind (for all
 * events at once), presents them in `lang` with their own views, and embeds those not trashed.
 * With `linked: 'index'` (single reads) the linked records come as the search index presents
 * them when it holds their current version, and only the others are loaded and presented.
 */
export async function viewEvents(
  services: Services,
  records: StoredRecord<EventDoc>[],
  lang: Language,
  options: ViewOptions = {},
): Promise<Record<string, unknown>[]> {
  const linked = (field: LinkField) => [...new Set(records.flatMap((record) => inLanguage(record, record.originalLang)[field] ?? []))];
  const fields: [SyncKind, LinkField][] = [
    ['venue', 'venues'],
    ['organizer', 'organizers'],
    ['category', 'categories'],
    ['tag', 'tags'],
  ];
  const indexed =
    options.linked === 'index'
      ? await currentIndexedRecords(
          services,
          fields.map(([kind, field]) => ({ kind, ids: linked(field) })),
          [{ kind: 'event', ids: records.map((record) => record.id) }],
          lang,
        )
      : new Map<string, Record<string, unknown>>();
  const load = async (kind: SyncKind, store: RecordStore<BaseDoc>, field: LinkField): Promise<Map<number, Record<string, unknown>>> => {
    const ids = linked(field);
    const found = new Map<number, Record<string, unknown>>();
    const missing: number[] = [];
    for (const id of ids) {
      const record = indexed.get(syncKey(kind, id));
      if (!record) missing.push(id);
      else if (record.status !== 'trash') found.set(id, record);
    }
    if (missing.length === 0) return found;
    const live = [...(await store.getMany(missing)).values()].filter(isLive);
    const presented = live.length === 0 ? [] : await viewOf(kind)(services, live, lang);
    for (const body of presented) found.set(body.id as number, body);
    return found;
  };
  const { stores } = services;
  const [venues, organizers, categories, tags] = await Promise.all([
    load('venue', stores.venues as unknown as RecordStore<BaseDoc>, 'venues'),
    load('organizer', stores.organizers as unknown as RecordStore<BaseDoc>, 'organizers'),
    load('category', stores.categories as unknown as RecordStore<BaseDoc>, 'categories'),
    load('tag', stores.tags as unknown as RecordStore<BaseDoc>, 'tags'),
  ]);
  const links: EventLinks = { venues, organizers, categories, tags };
  const env = presentEnvOf(services.config);
  return records.map((record) => presentEvent(record, lang, env, links));
}
