import { LANGUAGES, type Language } from '../../config';
import { isSeries, occurrencesWithContent, occurrenceVariant } from '../domain/recurrence/overrides';
import { toIndexDocument, type IndexDocument, type RelatedData } from '../search/documents';
import type { Services } from '../services/container';
import { viewOf, type ViewOptions } from '../services/views/recordViews';
import { inLanguage, type StoredRecord } from '../storage/storedRecord';
import type { EventDoc } from '../storage/stores';
import { loadRelated } from './relatedData';

/** Index documents of changed occurrences: language → event ID → recurrence ID → document. */
export type VariantDocuments = Map<Language, Map<number, Map<string, IndexDocument>>>;

/**
 * The index documents of the occurrences of `events` that show other content than their series
 * (another venue, organizer, cost, title, description or excerpt; EXTENSIONS part 11): each
 * series' record as that occurrence shows it, presented and mapped as any event is.
 */
export async function occurrenceVariantDocuments(
  services: Services,
  events: StoredRecord<EventDoc>[],
  related: RelatedData,
  view: ViewOptions,
): Promise<VariantDocuments> {
  const variants = events.flatMap((record) => {
    const docs = Object.values(record.docs).filter((doc): doc is EventDoc => doc !== undefined);
    if (!isSeries(inLanguage(record, record.originalLang))) return [];
    return [...occurrencesWithContent(docs)].map((recurrenceId) => ({
      recurrenceId,
      record: {
        ...record,
        docs: Object.fromEntries(docs.map((doc) => [doc.lang, occurrenceVariant(doc, recurrenceId)])),
      } as StoredRecord<EventDoc>,
    }));
  });
  const documents: VariantDocuments = new Map(LANGUAGES.map((lang) => [lang, new Map()]));
  if (variants.length === 0) return documents;
  const extra = await loadRelated(
    services,
    'event',
    variants.map((variant) => variant.record),
  );
  const all: RelatedData = {
    ...related,
    venues: new Map([...related.venues, ...extra.venues]),
    organizers: new Map([...related.organizers, ...extra.organizers]),
  };
  await Promise.all(
    LANGUAGES.flatMap((lang) =>
      variants.map(async ({ recurrenceId, record }) => {
        const [apiRecord] = await viewOf('event')(services, [record], lang, view);
        if (!apiRecord) return;
        const byEvent = documents.get(lang)!;
        const ofEvent = byEvent.get(record.id) ?? new Map<string, IndexDocument>();
        ofEvent.set(recurrenceId, toIndexDocument('event', record, lang, apiRecord, all));
        byEvent.set(record.id, ofEvent);
      }),
    ),
  );
  return documents;
}
