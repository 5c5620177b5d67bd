import path from 'node:path';

/**
 * The top-level folders of src/ and the folders each may import from. Every list names only
 * folders above it in this table, so dependencies point one way and folders cannot form a cycle.
 * `config/` (outside src/) may be imported from anywhere.
 */
export const LAYERS = {
  lib: [],
  domain: ['lib'],
  metrics: ['lib', 'domain'],
  storage: ['lib', 'domain', 'metrics'],
  presenters: ['lib', 'domain', 'storage'],
  search: ['lib', 'domain', 'storage', 'presenters'],
  services: ['lib', 'domain', 'metrics', 'storage', 'presenters', 'search'],
  indexer: ['lib', 'domain', 'metrics', 'storage', 'presenters', 'search', 'services'],
  http: ['lib', 'domain', 'metrics', 'storage', 'search', 'services'],
  api: ['lib', 'domain', 'metrics', 'storage', 'presenters', 'search', 'services', 'http'],
  app: ['lib', 'domain', 'metrics', 'storage', 'presenters', 'search', 'services', 'indexer', 'http', 'api'],
  // Outside the production graph: the embedded servers and the development launchers (npm start,
  // npm run worker) that put them before the production start; operators' commands and demo data.
  dev: ['lib', 'domain', 'metrics', 'storage', 'presenters', 'search', 'services', 'indexer', 'http', 'api', 'app'],
  tools: ['lib', 'domain', 'metrics', 'storage', 'presenters', 'search', 'services', 'indexer', 'dev'],
};

/** `src/<folder>/…` → folder; files directly in src/ or outside it → null. */
function folderOf(file, srcRoot) {
  const relative = path.relative(srcRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between the top-level folders of src/ follow lint/layers.mjs' },
    schema: [],
    messages: {
      unknown: 'src/{{from}}/ is not a known layer: add it to lint/layers.mjs.',
      upward: 'src/{{from}}/ may not import from src/{{to}}/ (allowed: {{allowed}}); see lint/layers.mjs.',
    },
  },
  create(context) {
    const file = context.filename;
    const srcRoot = path.join(context.cwd, 'src');
    const from = folderOf(file, srcRoot);
    if (!from) return {};
    const check = (node, source) => {
      const spec = source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = folderOf(path.resolve(path.dirname(file), spec), srcRoot);
      if (!to || to === from) return;
      const allowed = LAYERS[from];
      if (!allowed) context.report({ node, messageId: 'unknown', data: { from } });
      else if (!allowed.includes(to))
        context.report({ node, messageId: 'upward', data: { from, to, allowed: allowed.join(', ') || 'none' } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { layers: layersRule } };
