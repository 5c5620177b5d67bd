import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '../../../config';

/** Files of the reference page, served by the service itself from the swagger-ui-dist package (no CDN). */
const PACKAGE_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** Starts Swagger UI on the document named by the script tag; a file so the page needs no inline script. */
const INIT_SCRIPT = `(function () {
  var spec = document.currentScript.getAttribute('data-spec-url');
  window.ui = SwaggerUIBundle({
    url: spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayRequestDuration: true,
    filter: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    persistAuthorization: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
})();
`;

export const ASSET_NAMES = [...Object.keys(PACKAGE_FILES), 'doc-init.js'];

export interface Asset {
  type: string;
  body: Buffer;
}

const assets = new Map<string, Asset>();

function packageDirectory(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** A file of the reference page by name, or null when it is not one of them. */
export function docAsset(name: string): Asset | null {
  const cached = assets.get(name);
  if (cached) return cached;
  let asset: Asset | null = null;
  if (name === 'doc-init.js') asset = { type: 'application/javascript; charset=utf-8', body: Buffer.from(INIT_SCRIPT) };
  else if (Object.hasOwn(PACKAGE_FILES, name))
    asset = { type: PACKAGE_FILES[name]!, body: readFileSync(path.join(packageDirectory(), name)) };
  if (asset) assets.set(name, asset);
  return asset;
}

/** The page's own scripts and styles only; the "try it" requests go to this same origin. */
export const PAGE_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The HTML reference page: Swagger UI rendering `specUrl`, with assets under `assetsPath`. */
export function referencePage(options: {
  title: string;
  language: Language;
  specUrl: string;
  assetsPath: string;
}): string {
  const assetsPath = escapeHtml(options.assetsPath);
  const specUrl = escapeHtml(options.specUrl);
  return `<!doctype html>
<html lang="${options.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${assetsPath}/swagger-ui.css">
<link rel="icon" type="image/png" sizes="32x32" href="${assetsPath}/favicon-32x32.png">
</head>
<body>
<noscript><p><a href="${specUrl}">OpenAPI document (JSON)</a></p></noscript>
<div id="swagger-ui"></div>
<script src="${assetsPath}/swagger-ui-bundle.js"></script>
<script src="${assetsPath}/doc-init.js" data-spec-url="${specUrl}"></script>
</body>
</html>
`;
}
