import { safeRichText } from '../../domain/html';
import type { Language } from '../../../config';
import { inLanguage, type StoredRecord } from '../../storage/storedRecord';
import type { TermDoc } from '../../storage/stores';
import { ready, type ResourceDefinition } from '../resource/definition';
import { TERM_DESCRIPTION_MAX, termWriteSchema, type TermWriteInput } from './schema';
import { PLURAL, type TermKind } from '../../domain/kinds';

function termContent(
  kind: TermKind,
  lang: Language,
  input: TermWriteInput,
  existing: StoredRecord<TermDoc> | null,
): Partial<TermDoc> {
  const content: Partial<TermDoc> = {};
  if (input.name !== undefined) content.name = input.name;
  if (input.description !== undefined) {
    const html = input.description === null ? '' : safeRichText('description', input.description, TERM_DESCRIPTION_MAX);
    content.description = html === '' ? null : html;
  } else if (!existing) {
    content.description = null;
  }
  if (input.slug !== undefined && input.slug !== null && input.slug !== '') {
    content.slug = input.slug;
  } else if ((input.slug === null || input.slug === '') && existing) {
    // Clearing the slug regenerates it from the name shown in this language.
    content.slug = content.name ?? inLanguage(existing, lang).name;
  }
  if (kind === 'category' && input.parent !== undefined) {
    // Checked with the tree locked, as the write commits (resource/write.ts).
    content.parent = input.parent ?? 0;
  } else if (!existing) {
    content.parent = 0;
  }
  return content;
}

/** The generic resource definition of categories or tags (always deleted permanently). */
export function termDefinition(kind: TermKind): ResourceDefinition<TermDoc, TermWriteInput> {
  const plural = PLURAL[kind];
  return {
    kind,
    store: (services) => services.stores[plural],
    writeSchema: termWriteSchema(kind),
    requiredOnCreate: ['name'],
    posts: false,
    // Its `count`: an event's write that changes the term's events marks the term (dependents).
    readDependsOn: [kind],
    planContent: ready((_services, ctx, input, existing) => termContent(kind, ctx.state.language, input, existing)),
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
