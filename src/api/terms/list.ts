import { PLURAL, type TermKind } from '../../domain/kinds';
import type { RouteSpec } from '../../http/types';
import { Joi, id, idList, idOrZero, language, MAX_LIST_ITEMS, searchText, type LanguageInput } from '../../http/params';
import { pagingParams } from '../../http/listPage';
import { inputSchema, type InputSchema } from '../../http/route';
import { TERM_SLUG_MAX } from './schema';
import { termListQuery, type TermListInput } from '../../services/queries/termList';
import type { Services } from '../../services/container';
import { exportRoute } from '../exportRoute';
import { listRoute } from '../listRoute';

/** Parameters of a category (with `parent`) or tag list. */
function termListSchema(kind: TermKind): InputSchema<TermListInput & LanguageInput> {
  const label = PLURAL[kind];
  const keys = {
    ...pagingParams(),
    search: searchText().description(`Only ${label} whose name matches (typo-tolerant)`),
    exclude: idList().description(`${label} IDs to leave out`),
    include: idList().description(`Only these ${label} IDs (each must exist)`),
    order: Joi.string().lowercase().valid('asc', 'desc').default('asc').description('Sort direction'),
    orderby: Joi.string()
      .lowercase()
      .valid('id', 'name', 'slug', 'count')
      .default('name')
      .description('Term attribute to sort by'),
    hide_empty: Joi.flag()
      .default(true)
      .description(`Hide ${label} used by no published event (with post/event too: send false for a draft's ${label})`),
    parent: idOrZero().description('Only children of this category (0: top level); it must exist'),
    post: id().description(`Only the ${label} of this event`),
    event: id().description(`Only the ${label} of this event (wins over post)`),
    // CONTRACT 7: an empty `slug` is a 400 (other empty list filters are left out).
    slug: Joi.list()
      .items(Joi.string().trim().min(1).max(TERM_SLUG_MAX))
      .min(1)
      .max(MAX_LIST_ITEMS)
      .description(`Only ${label} with this slug (or these slugs)`),
    i18n_language: language(),
  };
  if (kind === 'category') return inputSchema<TermListInput & LanguageInput>()(keys);
  const { parent: _categoriesOnly, ...tagKeys } = keys;
  return inputSchema<Omit<TermListInput, 'parent'> & LanguageInput>()(tagKeys);
}

/** `GET /categories` or `GET /tags`: empty terms hidden unless asked for. */
export function termListRoutes(services: Services, kind: TermKind): RouteSpec[] {
  const description = `Event ${PLURAL[kind]} in the request language (each in its original language when not translated), ordered by name unless orderby says otherwise; empty ones hidden unless hide_empty=false.`;
  return [
    exportRoute(services, kind, termListSchema(kind), (input: TermListInput, caller) =>
      termListQuery(services, kind, input, caller),
    ),
    listRoute(services, kind, { description, input: termListSchema(kind) }, (input: TermListInput, caller) =>
      termListQuery(services, kind, input, caller),
    ),
  ];
}
