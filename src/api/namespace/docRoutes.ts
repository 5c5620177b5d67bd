import type { Config, Language } from '../../../config';
import { Joi, language } from '../../http/params';
import { noRoute } from '../../http/router';
import { restRoot } from '../../http/restRoot';
import type { RequestContext, RouteSpec } from '../../http/types';
import { openApiDocument } from './openapi';
import { ASSET_NAMES, docAsset, PAGE_SECURITY_POLICY, referencePage } from './docPage';
import { DOC_TEXTS } from './openapiText';

interface DocInput {
  format: 'json' | 'html';
  i18n_language?: Language;
}

/**
 * `GET /doc`: the OpenAPI document of the whole table (CONTRACT part 10), or with `format=html`
 * the browsable reference page; `GET /doc/assets/{file}`: that page's static files.
 */
export function docRoutes(table: RouteSpec[], config: Config): RouteSpec[] {
  return [
    {
      methods: ['GET'],
      path: '/doc',
      resource: 'documentation',
      summary: 'This OpenAPI document (format=html: the browsable reference page)',
      access: 'read',
      input: Joi.object({
        format: Joi.string()
          .valid('json', 'html')
          .default('json')
          .description('`json`: the OpenAPI 3 document; `html`: the reference page rendering it'),
        i18n_language: language(),
      }),
      response: 'openapi',
      errors: [400],
      handler: async (ctx: RequestContext<DocInput>) => {
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
    },
    {
      methods: ['GET'],
      path: '/doc/assets/:file',
      resource: 'documentation',
      summary: 'A static file of the reference page',
      access: 'read',
      input: Joi.object({
        file: Joi.string()
          .max(100)
          .required()
          .description(`One of ${ASSET_NAMES.join(', ')}`),
        i18n_language: language(),
      }),
      response: 'asset',
      errors: [404],
      handler: async (ctx: RequestContext<{ file: string }>) => {
        const asset = docAsset(ctx.input.file);
        if (!asset) throw noRoute();
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = asset.type;
        ctx.body = asset.body;
      },
    },
  ];
}
