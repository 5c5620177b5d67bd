import type { Config } from '../../../config';
import { Joi, language, type LanguageInput } from '../../http/params';
import { inputSchema, route } from '../../http/route';
import { noRoute } from '../../http/router';
import { restRoot } from '../../http/restRoot';
import type { RouteSpec } from '../../http/types';
import { openApiDocument } from './openapi';
import { ASSET_NAMES, docAsset, PAGE_SECURITY_POLICY, referencePage } from './docPage';
import { DOC_TEXTS } from './openapiText';

interface DocInput extends LanguageInput {
  format: 'json' | 'html';
}

interface AssetInput extends LanguageInput {
  file: string;
}

/**
 * `GET /doc`: the OpenAPI document of the whole table (CONTRACT part 10), or with `format=html`
 * the browsable reference page; `GET /doc/assets/{file}`: that page's static files.
 */
export function docRoutes(table: RouteSpec[], config: Config): RouteSpec[] {
  return [
    route({
      methods: ['GET'],
      path: '/doc',
      resource: 'documentation',
      summary: 'This OpenAPI document (format=html: the browsable reference page)',
      access: 'read',
      input: inputSchema<DocInput>()({
        format: Joi.string()
          .valid('json', 'html')
          .default('json')
          .description('`json`: the OpenAPI 3 document; `html`: the reference page rendering it'),
        i18n_language: language(),
      }),
      response: 'openapi',
      errors: [400],
      handler: async (ctx) => {
        const root = restRoot(ctx, config);
        if (ctx.input.format === 'html') {
          const rootPath = new URL(root).pathname;
          const query = ctx.input.i18n_language ? `?i18n_language=${ctx.input.i18n_language}` : '';
          ctx.set('Content-Security-Policy', PAGE_SECURITY_POLICY);
          ctx.type = 'text/html; charset=utf-8';
          ctx.body = referencePage({
            title: DOC_TEXTS[ctx.state.language].title,
            language: ctx.state.language,
            specUrl: `${rootPath}/doc${query}`,
            assetsPath: `${rootPath}/doc/assets`,
          });
          return;
        }
        ctx.body = openApiDocument(table, root, ctx.state.language);
      },
    }),
    route({
      methods: ['GET'],
      path: '/doc/assets/:file',
      resource: 'documentation',
      summary: 'A static file of the reference page',
      access: 'read',
      input: inputSchema<AssetInput>()({
        file: Joi.string()
          .max(100)
          .required()
          .description(`One of ${ASSET_NAMES.join(', ')}`),
        i18n_language: language(),
      }),
      response: 'asset',
      errors: [404],
      handler: async (ctx) => {
        const asset = docAsset(ctx.input.file);
        if (!asset) throw noRoute();
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = asset.type;
        ctx.body = asset.body;
      },
    }),
  ];
}
