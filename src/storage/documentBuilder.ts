import type { Language } from '../../config';
import { slugify } from '../domain/slug';
import type { BaseDoc } from './storedRecord';

/** What a write gives for a record: any fields but the stored bookkeeping, and maybe a slug. */
export type Content<D> = Partial<Omit<D, keyof BaseDoc>> & { slug?: string };

type Fields = Record<string, unknown>;

/** A record for `createMany`: its original language and content, and optional translations. */
export interface NewRecord<D extends BaseDoc> {
  lang: Language;
  content: Content<D>;
  /** Translatable fields per other language (shared fields come from `content`). */
  translations?: Partial<Record<Language, Content<D>>>;
}

/**
 * Builds the language documents of a record (RecordStore): translatable fields per document,
 * shared fields copied to every document of the record.
 */
export class DocumentBuilder {
  private readonly translatable: Set<string>;

  constructor(
    translatable: readonly string[],
    /** The translatable field a slug is generated from. */
    private readonly slugSource: string,
  ) {
    this.translatable = new Set([...translatable, 'slug']);
  }

  /** `content` as the fields of one language (`own`) and those of every language (`shared`). */
  split<D>(content: Content<D>): { own: Fields; shared: Fields } {
    const own: Fields = {};
    const shared: Fields = {};
    for (const [key, value] of Object.entries(content)) {
      if (value === undefined) continue;
      (this.translatable.has(key) ? own : shared)[key] = value;
    }
    return { own, shared };
  }

  /** The document of a new record in its original language. */
  original<D>(id: number, lang: Language, content: Content<D>, now: Date): Fields {
    const { own, shared } = this.split(content);
    return { ...shared, ...own, _id: `${id}:${lang}`, id, lang, originalLang: lang, createdAt: now, modifiedAt: now };
  }

  /** A translation: the original language's document with `lang`'s translatable fields. */
  translation(original: Fields | BaseDoc, lang: Language, own: Fields, now: Date): Fields {
    return { ...original, ...own, _id: `${original.id as number}:${lang}`, lang, createdAt: now };
  }

  /** A bulk-loaded document's slug: the one given, else its name's suffixed with the record ID. */
  bulkSlug(given: Fields, doc: Fields, id: number): string {
    if (typeof given.slug === 'string' && given.slug !== '') return slugify(given.slug) || String(id);
    const base = slugify(String(doc[this.slugSource] ?? ''));
    return base ? `${base}-${id}` : String(id);
  }

  /**
   * A bulk-loaded record's documents, built as a create (and an update, for translations) would
   * build them, but with `bulkSlug`s: no uniqueness query per record.
   */
  bulkDocuments<D extends BaseDoc>(id: number, record: NewRecord<D>, now: Date): Fields[] {
    const original = this.original(id, record.lang, record.content, now);
    original.slug = this.bulkSlug(record.content as Fields, original, id);
    const translations = Object.entries(record.translations ?? {}).flatMap(([lang, content]) => {
      if (lang === record.lang || !content) return [];
      const { own } = this.split(content);
      const doc = this.translation(original, lang as Language, own, now);
      doc.slug = this.bulkSlug(own, doc, id);
      return [doc];
    });
    return [original, ...translations];
  }
}
