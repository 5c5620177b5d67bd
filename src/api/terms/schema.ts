import { idOrZero, Joi, sluggable, text } from '../../http/params';
import { inputSchema, type InputSchema } from '../../http/route';
import type { TermKind } from '../../domain/kinds';

export const TERM_NAME_MAX = 200;
export const TERM_DESCRIPTION_MAX = 20_000;
export const TERM_SLUG_MAX = 200;

/** A term name: bounded printable text; required on create and never clearable (CONTRACT part 4). */
export const termName = () =>
  text(TERM_NAME_MAX).trim().invalid('').messages({ 'any.invalid': '{{#label}} cannot be empty' });

/** A category or tag write, as validated (`parent`: categories only). */
export interface TermWriteInput {
  name?: string;
  description?: string | null;
  slug?: string | null;
  parent?: number | null;
}

/**
 * Write fields of a category or a tag (interface.md parts 2.4 and 2.5), all optional here:
 * `name` is made required on create by the generic resource routes. Existence of `parent` and
 * the no-cycle rule need the database and are checked by the resource routes (RecordTree).
 */
export function termWriteSchema(kind: TermKind): InputSchema<TermWriteInput> {
  const keys = {
    name: termName().description(`The ${kind} name (required on create; cannot be cleared)`),
    description: text(TERM_DESCRIPTION_MAX)
      .allow(null)
      .description(`The ${kind} description; HTML is sanitised to a safe allow-list; null or "" clears it`),
    slug: sluggable(Joi.string().trim().max(TERM_SLUG_MAX))
      .allow('', null)
      .description(
        `The ${kind} slug (unique per language; generated from the name when absent, suffixed -2, -3... when taken; null or "" regenerates it)`,
      ),
    parent: idOrZero()
      .clearable()
      .description(
        'Parent category ID; 0, null or "" for none. Must be an existing category that is not this category or one of its descendants',
      ),
  };
  if (kind === 'category') return inputSchema<TermWriteInput>()(keys);
  const { parent: _categoriesOnly, ...tagKeys } = keys;
  return inputSchema<Omit<TermWriteInput, 'parent'>>()(tagKeys);
}
