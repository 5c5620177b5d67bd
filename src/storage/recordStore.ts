import { BSON, type Collection, type Db, type Filter } from 'mongodb';
import { LANGUAGES, type Language } from '../../config';
import { nextId, nextIds, type CounterName } from './counters';
import { idFilter, keep } from './idFilter';
import { KeyedQueue } from '../lib/keyedQueue';
import { RecordTree } from './recordTree';
import { ensureIndexes, isDuplicateId, type WantedIndex } from './mongo';
import { WriteClaims } from './writeClaims';
import { DeletedReferences } from './deletedReferences';
import { dependentsToMark, type Dependents } from './dependents';
import { inLanguage, recordsOf, type BaseDoc, type StoredRecord } from './storedRecord';
import { DocumentBuilder, type Content, type NewRecord } from './documentBuilder';
import type { SyncQueue } from './syncQueue';
import { insertWithUniqueSlug, setWithUniqueSlug } from './uniqueSlugs';
import { idsBySlugsAsWritten } from './slugLookup';
import type { RecordKind } from '../domain/kinds';
import type { Audience } from '../domain/policy';
import { changedMeanwhile } from '../domain/errors';
import { docAudience, recordsAudience } from './recordAccess';

export interface RecordStoreOptions<D> {
  collection: string;
  kind: RecordKind;
  counter: CounterName;
  /** Per-language fields (title, description, excerpt, slug...); all others are shared. */
  translatable: readonly (keyof D & string)[];
  /** The translatable field a slug is generated from. */
  slugSource: keyof D & string;
  /** The shared field naming a record's parent of the same kind, when records form a tree. */
  treeField?: keyof D & string;
  /** What records of other kinds index about this one (see dependents.ts). */
  dependents?: Dependents<D>;
}

/** Documents per insertMany of `createMany`: each command stays well within the socket timeout. */
const BULK_INSERT_DOCS = 500;

/**
 * Stores records as one MongoDB document per record and language: translatable fields per
 * document, shared fields copied identically to every document of the record. Every write is
 * bracketed by the sync queue so the search index follows.
 */
export class RecordStore<D extends BaseDoc> {
  /** This process's writes, one at a time per record (see `exclusive`). */
  private readonly writes = new KeyedQueue<number>();
  /** The hierarchy of records with a `treeField`, else null. */
  readonly tree: RecordTree<D> | null;
  readonly docs: Collection<D>;
  private readonly documents: DocumentBuilder;
  private readonly claims: WriteClaims<D>;
  private readonly references: DeletedReferences<D>;

  constructor(
    private readonly db: Db,
    private readonly sync: SyncQueue,
    private readonly options: RecordStoreOptions<D>,
  ) {
    this.docs = db.collection<D>(options.collection);
    this.documents = new DocumentBuilder(options.translatable, options.slugSource);
    this.claims = new WriteClaims(this.docs, options.kind);
    this.references = new DeletedReferences(this.docs, sync, options.kind);
    const { collection, treeField, kind } = options;
    this.tree = treeField ? new RecordTree(db, collection, kind, treeField) : null;
  }

  get kind(): RecordKind {
    return this.options.kind;
  }

  /** The ID counter the store's kind shares with others (posts, terms). */
  get counter(): CounterName {
    return this.options.counter;
  }

  /** The store's indexes, and `more` on the same collection (one listing for all). */
  async ensureIndexes(more: WantedIndex[] = []): Promise<void> {
    await ensureIndexes(
      this.docs,
      [
        { key: { id: 1 }, options: { name: 'id' } },
        { key: { slug: 1, lang: 1 }, options: { unique: true, name: 'slug_lang_unique' } },
        ...more,
      ],
      // (id, lang) is unique through `_id` (`${id}:${lang}`): a second unique index only cost writes.
      ['id_lang_unique'],
    );
  }

  async get(id: number): Promise<StoredRecord<D> | null> {
    const docs = (await this.docs.find({ id } as Filter<D>).toArray()) as D[];
    if (docs.length === 0) return null;
    const record: StoredRecord<D> = { id, originalLang: docs[0]!.originalLang, docs: {} };
    for (const doc of docs) record.docs[doc.lang] = doc;
    return record;
  }

  async getMany(ids: number[]): Promise<Map<number, StoredRecord<D>>> {
    if (ids.length === 0) return new Map();
    return recordsOf(keep((await this.docs.find(idFilter(ids) as Filter<D>).toArray()) as D[], ids));
  }

  /** The records whose IDs are from `first` to `last`, both included. */
  async getRange(first: number, last: number): Promise<Map<number, StoredRecord<D>>> {
    return recordsOf((await this.docs.find({ id: { $gte: first, $lte: last } } as Filter<D>).toArray()) as D[]);
  }

  /** The highest ID the store holds, 0 when it is empty (one read of the `id` index on MongoDB). */
  async highestId(): Promise<number> {
    const [doc] = await this.docs.find({}, { projection: { id: 1 }, sort: { id: -1 }, limit: 1 }).toArray();
    return doc?.id ?? 0;
  }

  /** Looks the slug up in `lang` first, then in any language (CONTRACT part 5). */
  async getBySlug(slug: string, lang: Language): Promise<StoredRecord<D> | null> {
    const hit =
      (await this.docs.findOne({ slug, lang } as Filter<D>)) ??
      (await this.docs
        .find({ slug } as Filter<D>)
        .sort({ id: 1 })
        .limit(1)
        .next());
    return hit ? this.get((hit as D).id) : null;
  }

  /** getBySlug for a slug as a client may write it (`Café-Zürich` finds `cafe-zurich`). */
  async getBySlugAsWritten(text: string, lang: Language): Promise<StoredRecord<D> | null> {
    const id = (await this.idsBySlugsAsWritten([text], lang)).get(text);
    return id === undefined ? null : this.get(id);
  }

  /** The IDs of the records slugs written by a client name, by text, in one read (see slugLookup.ts). */
  idsBySlugsAsWritten(texts: string[], lang: Language): Promise<Map<string, number>> {
    return idsBySlugsAsWritten(this.docs, texts, lang);
  }

  async exists(id: number): Promise<boolean> {
    return (await this.docs.countDocuments({ id } as Filter<D>, { limit: 1 })) > 0;
  }

  /**
   * `exactSlug`: insert with exactly `content.slug` or fail with the duplicate-key error (no
   * -2 suffix), so concurrent creators of the same term can agree on one record.
   */
  async create(lang: Language, content: Content<D>, options: { exactSlug?: boolean } = {}): Promise<StoredRecord<D>> {
    const id = await nextId(this.db, this.options.counter);
    const { own } = this.documents.split(content);
    const doc = this.documents.original(id, lang, content, new Date());
    const slugSource =
      (content.slug as string | undefined) ?? (own[this.options.slugSource] as string | undefined) ?? '';
    await this.sync.begin(this.options.kind, id);
    let inserted: Record<string, unknown>;
    try {
      if (options.exactSlug) await this.docs.insertOne((inserted = { ...doc, slug: content.slug }) as never);
      else inserted = await insertWithUniqueSlug(this.docs, doc, slugSource);
    } finally {
      await this.sync.commit(this.options.kind, id, docAudience(this.options.kind, doc));
    }
    await this.sync.marks.bump(this.linkedKinds(content));
    // The new record is the document inserted, as MongoDB would return it: no need to read it back.
    const stored = BSON.deserialize(BSON.serialize(inserted)) as D;
    return { id, originalLang: lang, docs: { [lang]: stored } } as StoredRecord<D>;
  }

  /**
   * The kinds a new record links to whose records count it (an event's terms): their reads change
   * with it at once (the worker marks them dirty later; updates mark them as they write).
   */
  private linkedKinds(content: Content<D>): RecordKind[] {
    const links = this.options.dependents?.links ?? [];
    const given = content as Record<string, unknown>;
    return links.flatMap(([kind, field]) => (Array.isArray(given[field]) && given[field].length > 0 ? [kind] : []));
  }

  /**
   * Runs `write` once no other `exclusive` write of record `id` runs in this process: writes of
   * one record queue, so each is checked against the record the previous one left.
   */
  exclusive<T>(id: number, write: () => Promise<T>): Promise<T> {
    return this.writes.run(id, write);
  }

  /**
   * Applies a merge update in `lang`: translatable fields to that language's document, shared
   * fields to every document. Writes to `record` as it was read, or to nothing (409) when another
   * write changed it since. `content` may be a function making what the content links to (inline
   * venues, new terms): it runs once the record is claimed; any failure before the write releases it.
   */
  async update(
    record: StoredRecord<D>,
    lang: Language,
    content: Content<D> | (() => Promise<Content<D>>),
  ): Promise<StoredRecord<D>> {
    const claim = await this.claims.claim(record);
    let written: Content<D>;
    try {
      written = typeof content === 'function' ? await content() : content;
    } catch (err) {
      await this.claims.release(claim).catch(() => undefined);
      throw err;
    }
    const { own, shared } = this.documents.split(written);
    const { id, writtenAt: now } = claim;
    try {
      await this.sync.begin(this.options.kind, id);
      await this.writeOwnFields(record, lang, own, now);
    } catch (err) {
      // Refused as a whole (no free slug) or failed: the record is left as it was read, free for
      // other writes; its shared fields (status, author) were not written.
      await this.claims.release(claim).catch(() => undefined);
      await this.sync.commit(this.options.kind, id, this.audienceOf(record)).catch(() => undefined);
      throw err;
    }
    const updated = await this.finishWrite(id, record, async () => {
      await this.docs.updateMany(
        { id } as Filter<D>,
        { $set: { ...shared, modifiedAt: now }, $unset: { writeLockedUntil: '' } } as never,
      );
      const after = await this.get(id);
      if (after) await this.sync.markAllDirty(dependentsToMark(this.options.dependents, record, after));
      return after;
    });
    if (!updated) throw changedMeanwhile(this.options.kind, id);
    return updated;
  }

  /**
   * Runs the last writes of record `id`, read as `before`, then commits its sync entry whatever
   * happens, with the audience of its states before and after (`write`'s answer: the record now).
   * A write that failed may have left either state, or any: its change is logged as seen by everyone.
   */
  private async finishWrite<T extends StoredRecord<D> | null | void>(
    id: number,
    before: StoredRecord<D>,
    write: () => Promise<T>,
  ): Promise<T> {
    let audience: Audience[] = ['everyone'];
    try {
      const after = await write();
      audience = this.audienceOf(before, after || null);
      return after;
    } finally {
      await this.sync.commit(this.options.kind, id, audience);
    }
  }

  private audienceOf(...states: (StoredRecord<D> | null)[]): Audience[] {
    return recordsAudience(this.options.kind, ...states);
  }

  /** Writes the translatable fields of an update to `lang`'s document, created from the original when missing. */
  private async writeOwnFields(
    record: StoredRecord<D>,
    lang: Language,
    own: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    const existing = record.docs[lang];
    if (existing) {
      if (Object.keys(own).length > 0) await setWithUniqueSlug(this.docs, existing, own);
      return;
    }
    const original = inLanguage(record, record.originalLang);
    const copied = this.documents.translation(original, lang, own, now);
    const source =
      (own.slug as string | undefined) ?? (own[this.options.slugSource] as string | undefined) ?? original.slug;
    const inserted = await insertWithUniqueSlug(this.docs, copied, source).then(
      () => true,
      (err: unknown) => {
        if (isDuplicateId(err)) return false;
        throw err;
      },
    );
    // A concurrent write created this language first: this one updates it, as if it came later.
    const created = inserted ? null : await this.docs.findOne({ _id: copied._id } as Filter<D>);
    if (created && Object.keys(own).length > 0) await setWithUniqueSlug(this.docs, created as D, own);
  }

  /** Number of records (not language documents). */
  async countRecords(): Promise<number> {
    const [row] = await this.docs.aggregate<{ n: number }>([{ $group: { _id: '$id' } }, { $count: 'n' }]).toArray();
    return row?.n ?? 0;
  }

  /** Every record's ID, ascending, read `batchSize` at a time (a record's documents are adjacent). */
  async *ids(batchSize: number): AsyncGenerator<number> {
    const cursor = this.docs.find(
      {},
      { projection: { id: 1 }, sort: { id: 1 }, batchSize: batchSize * LANGUAGES.length },
    );
    let last: number | undefined;
    try {
      for await (const doc of cursor) {
        if (doc.id !== last) yield (last = doc.id);
      }
    } finally {
      await cursor.close();
    }
  }

  /** IDs of the records whose shared field `field` holds any of `values` (or equals one). */
  async idsWithAny(field: keyof D & string, values: number[]): Promise<number[]> {
    if (values.length === 0) return [];
    return (await this.docs.distinct('id', { [field]: { $in: values } } as Filter<D>)) as number[];
  }

  /** One shared field of every record, by ID (for small kinds: each category's parent). */
  async sharedFieldOfAll<K extends keyof D & string>(field: K): Promise<Map<number, D[K]>> {
    const docs = await this.docs.find({}, { projection: { id: 1, [field]: 1 } }).toArray();
    return new Map(docs.map((doc) => [doc.id as number, (doc as D)[field]]));
  }

  /** Sets the shared field `field` to `to` on every record where it is `from` (`from` was deleted). */
  reassign(field: keyof D & string, from: number, to: number): Promise<number[]> {
    return this.references.reassign(field, from, to);
  }

  /** Removes `linkedId` from the array field `field` of every record that holds it (it was deleted). */
  unlinkEverywhere(field: keyof D & string, linkedId: number): Promise<number[]> {
    return this.references.unlinkEverywhere(field, linkedId);
  }

  /**
   * Bulk create for imports and demo data (src/tools/demo/demoData.ts): IDs allocated as one block, the
   * documents built exactly as `create` (and `update`, for `translations`) build them, one
   * insertMany, and the sync entries written in bulk, bracketed like `create`'s (pending with a
   * writer's grace before the insert, committed after). Slugs: a given `slug` is used as is; a
   * missing one is generated from the name and suffixed with the record ID ("jazz-night-1234"),
   * so no uniqueness query per record. A slug already taken fails the call (duplicate key).
   * `queueIndexing: false` commits without queueing: only a reindex indexes these records.
   * Returns the new IDs, in the order of `records`.
   */
  async createMany(records: NewRecord<D>[], options: { queueIndexing?: boolean } = {}): Promise<number[]> {
    if (records.length === 0) return [];
    const first = await nextIds(this.db, this.options.counter, records.length);
    const ids = records.map((_record, i) => first + i);
    const now = new Date();
    const built = records.map((record, i) => this.documents.bulkDocuments(ids[i] as number, record, now));
    const originals = built.map(([original]) => original!);
    const docs = built.flat();
    await this.sync.beginNew(this.options.kind, ids);
    try {
      for (let i = 0; i < docs.length; i += BULK_INSERT_DOCS) {
        await this.docs
          .insertMany(docs.slice(i, i + BULK_INSERT_DOCS) as never[], { ordered: false })
          .catch((err: unknown) => {
            // The IDs are new: an `_id` duplicate only comes from the driver retrying the insert.
            if (!isDuplicateId(err)) throw err;
          });
      }
    } finally {
      await this.sync.commitNew(this.options.kind, ids, {
        queue: options.queueIndexing ?? true,
        audiences: new Map(ids.map((id, i) => [id, docAudience(this.options.kind, originals[i]!)])),
      });
    }
    return ids;
  }

  /**
   * Deletes `record` (as read) for good, claimed like an update (409 when another process's write
   * changed or holds it): `removal` runs what must go with it (links to it, children) and calls
   * `deleteDocuments` when it is time. A removal that fails before then leaves the record free.
   */
  async remove(
    record: StoredRecord<D>,
    removal: (deleteDocuments: () => Promise<void>) => Promise<void> = (deleteDocuments) => deleteDocuments(),
  ): Promise<void> {
    const { id } = record;
    const claim = await this.claims.claim(record);
    let deleting = false;
    const deleteDocuments = async () => {
      deleting = true;
      await this.sync.begin(this.options.kind, id);
      await this.finishWrite(id, record, async () => {
        await this.docs.deleteMany({ id } as Filter<D>);
        await this.sync.markAllDirty(dependentsToMark(this.options.dependents, record, null));
      });
    };
    try {
      await removal(deleteDocuments);
    } catch (err) {
      if (!deleting) await this.claims.release(claim).catch(() => undefined);
      throw err;
    }
  }
}
