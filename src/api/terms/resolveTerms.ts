/**
 * planTermLinks(services, taxonomy, refs, lang, mayCreate) → Promise<{ commit() → number[] }>
 *
 * Turns the `categories` / `tags` values of an event write (CONTRACT part 4) into term IDs. Every
 * check runs first; the new terms are created only by `commit()`, once the whole write is valid:
 * - a number, or a string of digits, is an ID: it must be a term of `taxonomy`; an unknown ID,
 *   or the ID of the other term kind, throws ValidationError naming `categories` / `tags` (400);
 * - any other string is trimmed and matched against existing terms of `taxonomy`: by slug
 *   (lower-cased; in `lang`, then any language), then by name ignoring case (in `lang`, then any
 *   language);
 * - an unmatched string is a new name: the term is created in `lang` (description null, parent 0),
 *   when `mayCreate` (editors and above manage terms); otherwise it is a 403 `rest_forbidden`.
 *   Concurrent creations of the same name yield one term (see createTermByName).
 *   An empty or over-long name (or a non-integer / non-positive number) throws ValidationError.
 * `commit()` gives the IDs in the order given, without duplicates. IDs are checked in one query,
 * names in two (termIdsByNames).
 */
import { createHash } from 'node:crypto';
import type { Language } from '../../../config';
import { slugify } from '../../domain/slug';
import { ForbiddenError, ValidationError } from '../../domain/errors';
import type { Services } from '../../services/container';
import { createTermByName, termIdsByNames } from '../../storage/termQueries';
import { termName } from './schema';
import { requireTermIds } from '../../services/commands/references';
import { PLURAL, type TermKind } from '../../domain/kinds';

export type TermRef = number | string;

function isIdRef(ref: TermRef): boolean {
  return typeof ref === 'number' || /^\d+$/.test(ref.trim());
}

export async function planTermLinks(
  services: Services,
  taxonomy: TermKind,
  refs: TermRef[],
  lang: Language,
  mayCreate = true,
): Promise<{ commit(): Promise<number[]> }> {
  const param = PLURAL[taxonomy];
  const store = services.stores[PLURAL[taxonomy]];
  await requireTermIds(services, taxonomy, refs.filter(isIdRef).map(toId(param)), param);
  // IDs and names in order; a name given twice (in any case) counts once.
  const refsInOrder: (number | string)[] = [];
  const names = new Map<string, string>();
  for (const ref of refs) {
    if (isIdRef(ref)) {
      refsInOrder.push(toId(param)(ref));
      continue;
    }
    const name = nameOf(param, ref as string);
    if (names.has(name.toLowerCase())) continue;
    names.set(name.toLowerCase(), name);
    refsInOrder.push(name);
  }
  const existing = await termIdsByNames(store, [...names.values()], lang);
  const unknown = [...names.values()].find((name) => !existing.has(name.toLowerCase()));
  if (unknown !== undefined && !mayCreate) {
    throw new ForbiddenError(
      'rest_forbidden',
      `There is no ${taxonomy} named ${JSON.stringify(unknown)}, and only editors and administrators may create ${param}.`,
    );
  }
  // An ID, or the name of a term to create.
  const planned = refsInOrder.map((ref) => (typeof ref === 'number' ? ref : (existing.get(ref.toLowerCase()) ?? ref)));
  return {
    async commit() {
      const ids: number[] = [];
      for (const ref of planned) {
        const id = typeof ref === 'number' ? ref : await createTermByName(store, ref, baseSlugOf(taxonomy, ref), lang);
        if (!ids.includes(id)) ids.push(id);
      }
      return ids;
    },
  };
}

const toId =
  (param: string) =>
  (ref: TermRef): number => {
    const id = Number(typeof ref === 'string' ? ref.trim() : ref);
    if (!Number.isSafeInteger(id) || id < 1) throw new ValidationError({ [param]: `${ref} is not a valid term ID.` });
    return id;
  };

function nameOf(param: string, ref: string): string {
  const { value, error } = termName().validate(ref);
  if (error) throw new ValidationError({ [param]: `A term name ${error.message.replace(/^"value" /, '')}.` });
  return value as string;
}

/** Names with no Latin letters or digits slugify to nothing: derive a stable slug instead. */
function baseSlugOf(taxonomy: TermKind, name: string): string {
  return slugify(name) || `${taxonomy}-${createHash('sha1').update(name.toLowerCase()).digest('hex').slice(0, 10)}`;
}
