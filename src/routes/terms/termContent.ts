import { ValidationError } from '../../errors';
import { safeRichText } from '../../domain/html';
import type { Services } from '../../services';
import type { Language } from '../../../config';
import { type RecordStore } from '../../storage/recordStore';
import { inLanguage, type BaseDoc, type StoredRecord } from '../../storage/storedRecord';
import type { TermDoc } from '../../storage/stores';
import type { ResourceDefinition } from '../resource';
import { TERM_DESCRIPTION_MAX, termWriteSchema } from './schema';
import { OTHER_TERM_KIND, PLURAL, type TermKind } from '../../domain/kinds';

type Input = Record<string, unknown>;

/** Ancestors further up than this are treated as a cycle (a guard against corrupted data). */
const MAX_CATEGORY_DEPTH = 100;

/**
 * `parent` must be 0 or an existing category, and must not make the category its own ancestor:
 * walking up from the new parent must never reach the category being updated.
 */
async function checkParent(services: Services, parent: number, self: number | null): Promise<void> {
  if (parent === 0) return;
  if (parent === self) throw new ValidationError({ parent: 'A category cannot be its own parent.' });
  const categories = services.stores.categories;
  let current = await categories.get(parent);
  if (!current) {
    const isTag = await services.stores.tags.exists(parent);
    throw new ValidationError({
      parent: isTag ? `${parent} is a tag, not a category.` : `There is no category with ID ${parent}.`,
    });
  }
  if (self === null) return;
  for (let depth = 0; depth < MAX_CATEGORY_DEPTH; depth++) {
    const up = inLanguage(current, current.originalLang).parent ?? 0;
    if (up === 0) return;
    if (up === self)
      throw new ValidationError({
        parent: `Category ${parent} is a descendant of category ${self}; a category cannot become its own ancestor.`,
      });
    const next = await categories.get(up);
    if (!next) return;
    current = next;
  }
  throw new ValidationError({ parent: 'The category hierarchy is too deep.' });
}

async function termContent(
  services: Services,
  kind: TermKind,
  lang: Language,
  input: Input,
  existing: StoredRecord<TermDoc> | null,
): Promise<Partial<TermDoc>> {
  const content: Partial<TermDoc> = {};
  if (input.name !== undefined) content.name = input.name as string;
  if (input.description !== undefined) {
    const html =
      input.description === null ? '' : safeRichText('description', input.description as string, TERM_DESCRIPTION_MAX);
    content.description = html === '' ? null : html;
  } else if (!existing) {
    content.description = null;
  }
  if (input.slug !== undefined && input.slug !== null && input.slug !== '') {
    content.slug = input.slug as string;
  } else if ((input.slug === null || input.slug === '') && existing) {
    // Clearing the slug regenerates it from the name shown in this language.
    content.slug = content.name ?? inLanguage(existing, lang).name;
  }
  if (kind === 'category' && input.parent !== undefined) {
    const parent = (input.parent as number | null) ?? 0;
    await checkParent(services, parent, existing?.id ?? null);
    content.parent = parent;
  } else if (!existing) {
    content.parent = 0;
  }
  return content;
}

/** The generic resource definition of categories or tags (always deleted permanently). */
export function termDefinition(kind: TermKind): ResourceDefinition<TermDoc> {
  const plural = PLURAL[kind];
  return {
    kind,
    plural,
    label: kind,
    store: (services) => services.stores[plural],
    siblings: (services) => [services.stores[PLURAL[OTHER_TERM_KIND[kind]]] as unknown as RecordStore<BaseDoc>],
    writeSchema: termWriteSchema(kind),
    requiredOnCreate: ['name'],
    posts: false,
    toContent: (services, ctx, input, existing) => termContent(services, kind, ctx.state.language, input, existing),
    onPermanentDelete: async (services, id) => {
      await services.stores.events.unlinkEverywhere(plural, id);
    },
    // Decision: children of a deleted category move up to the deleted category's parent (as
    // WordPress does), so the hierarchy keeps no dangling parent IDs.
    reparentChildren:
      kind === 'category'
        ? async (services, id) => {
            const deleted = await services.stores.categories.get(id);
            const grandparent = deleted ? (inLanguage(deleted, deleted.originalLang).parent ?? 0) : 0;
            await services.stores.categories.reassign('parent', id, grandparent);
          }
        : undefined,
  };
}
