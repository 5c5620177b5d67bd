import { LANGUAGES, type Language } from '../../config';

/** Fields every stored language document carries, whatever its kind. */
export interface BaseDoc {
  _id: string;
  id: number;
  lang: Language;
  originalLang: Language;
  slug: string;
  createdAt: Date;
  modifiedAt: Date;
}

/** All language documents of one record. */
export interface StoredRecord<D extends BaseDoc> {
  id: number;
  originalLang: Language;
  docs: Partial<Record<Language, D>>;
}

/** The document of `lang`, else of the original language (CONTRACT part 5). */
export function inLanguage<D extends BaseDoc>(record: StoredRecord<D>, lang: Language): D {
  return (record.docs[lang] ?? record.docs[record.originalLang] ?? Object.values(record.docs)[0]) as D;
}

export function languagesOf<D extends BaseDoc>(record: StoredRecord<D>): Language[] {
  return LANGUAGES.filter((lang) => record.docs[lang] !== undefined);
}

/** Language documents grouped into records, by ID. */
export function recordsOf<D extends BaseDoc>(docs: D[]): Map<number, StoredRecord<D>> {
  const found = new Map<number, StoredRecord<D>>();
  for (const doc of docs) {
    const record = found.get(doc.id) ?? { id: doc.id, originalLang: doc.originalLang, docs: {} };
    record.docs[doc.lang] = doc;
    found.set(doc.id, record);
  }
  return found;
}
