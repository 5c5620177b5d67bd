import { filterList, Joi, language, text, type LanguageInput } from '../../http/params';
import { inputSchema, route } from '../../http/route';
import type { RouteSpec } from '../../http/types';
import { SUGGEST_KINDS } from '../../search/suggestQuery';
import { DEFAULT_SUGGESTIONS, MAX_SUGGESTIONS, suggest, type SuggestInput } from '../../services/queries/suggestions';
import type { Services } from '../../services/container';

/** Longest text type-ahead takes: a name being typed, not a query. */
export const SUGGEST_TEXT_MAX = 100;

export const suggestSchema = inputSchema<SuggestInput & LanguageInput>()({
  search: text(SUGGEST_TEXT_MAX)
    .trim()
    .disallow('')
    .required()
    .example('jaz')
    .description(
      'The letters typed so far: each word begins a word of the name or title (accents and case ignored, one typo forgiven past the first three letters)',
    ),
  kinds: filterList()
    .items(
      Joi.string()
        .trim()
        .lowercase()
        .valid(...SUGGEST_KINDS),
    )
    .max(SUGGEST_KINDS.length)
    .unique()
    .example('events,venues')
    .description('What to suggest: events, venues, organizers, categories, tags (default: all)'),
  per_page: Joi.number()
    .integer()
    .min(1)
    .default(DEFAULT_SUGGESTIONS)
    .example(5)
    .description(`Suggestions to return (at most ${MAX_SUGGESTIONS}; larger values are capped)`),
  i18n_language: language(),
});

/** `GET /suggest`: type-ahead over names and titles (EXTENSIONS part 15). */
export function suggestRoutes(services: Services): RouteSpec[] {
  return [
    route({
      methods: ['GET'],
      path: '/suggest',
      resource: 'suggest',
      summary: 'Suggest names as they are typed',
      description:
        'Events (not over yet), venues, organizers, categories and tags whose name or title begins with the words typed, in the request language, ' +
        'best first: names beginning with the text typed, then every word begun as typed, then within one typo; ties by name. ' +
        "Only what the caller's lists show (anonymous: published records; events hidden from listings to editors only).",
      access: 'read',
      input: suggestSchema,
      response: 'suggestions',
      errors: [400, 503],
      handler: async (ctx) => {
        const caller = { lang: ctx.state.language, principal: ctx.state.principal };
        const input = { ...ctx.input, per_page: Math.min(ctx.input.per_page, MAX_SUGGESTIONS) };
        ctx.body = { suggestions: await suggest(services, input, caller) };
      },
    }),
  ];
}
