import { Joi } from '../../http/params';
import type { InputKeys } from '../../http/route';
import type { RequestContext } from '../../http/types';
import { invalidKindId, notFound } from '../../domain/errors';
import { PLURAL } from '../../domain/kinds';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import { otherKindOf, type Resource } from './resource';

/** How the single-record routes of a resource name their record: by ID, or by slug for posts. */
export interface Address<D extends BaseDoc, A> {
  /** `/events/:id`, `/events/by-slug/:slug`. */
  path: string;
  /** Renames path parameters in the input (the `:slug` that addresses a record vs a new `slug`). */
  pathKeys?: Record<string, string>;
  /** For summaries: "by ID", "by slug". */
  addressed: string;
  keys: InputKeys<A>;
  find(ctx: RequestContext<A>): Promise<StoredRecord<D>>;
  /** What names the record in the input, as a key (`id:12`, `slug:jazz-night`). */
  keyOf(input: A): string;
  /** The record's ID when the input gives it (a write then reads the record once, in its queue). */
  idIn(input: A): number | undefined;
  /** The record as a refusal names it: `ID 12`, `slug "jazz-night"`. */
  named(input: A, record: StoredRecord<D>): string;
}

export interface ByIdInput {
  id: number;
}

export interface BySlugInput {
  lookup_slug: string;
}

/** `/{plural}/:id`. */
export function byId<D extends BaseDoc>(res: Resource<D>): Address<D, ByIdInput> {
  const { kind } = res.def;
  return {
    path: `/${PLURAL[kind]}/:id`,
    addressed: 'by ID',
    // Any digits (CONTRACT 1): an ID no record can have, 0 or past the safe integers, is just not found.
    keys: { id: Joi.number().integer().min(0).unsafe().required().description(`${kind} ID`) },
    async find(ctx) {
      const { id } = ctx.input;
      // No record has an ID past the safe integers; the message names the ID as written, not rounded.
      if (!Number.isSafeInteger(id)) throw notFound(kind, String(ctx.params?.id ?? id));
      const record = await res.store.get(id);
      if (record) return record;
      throw (await otherKindOf(res, id)) ? invalidKindId(kind, id) : notFound(kind, id);
    },
    keyOf: (input) => `id:${input.id}`,
    idIn: (input) => input.id,
    named: (_input, record) => `ID ${record.id}`,
  };
}

/** `/{plural}/by-slug/:slug` (posts). */
export function bySlug<D extends BaseDoc>(res: Resource<D>): Address<D, BySlugInput> {
  const { kind } = res.def;
  return {
    path: `/${PLURAL[kind]}/by-slug/:slug`,
    pathKeys: { slug: 'lookup_slug' },
    addressed: 'by slug',
    keys: { lookup_slug: Joi.string().max(400).required().description(`${kind} slug`) },
    async find(ctx) {
      const slug = ctx.input.lookup_slug;
      const record = await res.store.getBySlugAsWritten(slug, ctx.state.language);
      if (!record) throw notFound(kind, slug);
      return record;
    },
    keyOf: (input) => `slug:${input.lookup_slug}`,
    idIn: () => undefined,
    named: (input) => `slug "${input.lookup_slug}"`,
  };
}
