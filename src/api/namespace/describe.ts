import type Joi from 'joi';
import type { RouteSpec } from '../../http/types';

export interface ArgumentDescription {
  /** One JSON type, or the types an argument may take (`["integer", "object"]`: an ID or a record). */
  type?: string | string[];
  required: boolean;
  default?: unknown;
  enum?: unknown[];
  items?: { type: string | string[] };
  description?: string;
  example?: unknown;
}

interface JoiDescription {
  type: string;
  flags?: { presence?: string; default?: unknown; description?: string; only?: boolean };
  allow?: unknown[];
  items?: JoiDescription[];
  keys?: Record<string, JoiDescription>;
  rules?: { name: string }[];
  matches?: { schema?: JoiDescription }[];
  examples?: unknown[];
}

const TYPE_NAMES: Record<string, string> = {
  number: 'number',
  string: 'string',
  boolean: 'boolean',
  flag: 'boolean',
  array: 'array',
  list: 'array',
  object: 'object',
  dateInput: 'string',
};

function typeOf(d: JoiDescription): string | string[] | undefined {
  if (d.type === 'number' && d.rules?.some((r) => r.name === 'integer')) return 'integer';
  if (d.type === 'alternatives') {
    const types = [...new Set((d.matches ?? []).flatMap((match) => (match.schema && typeOf(match.schema)) || []))];
    return types.length === 1 ? types[0] : types.length > 1 ? types : undefined;
  }
  return TYPE_NAMES[d.type];
}

/** Describes one parameter from its joi schema: type, required, default, enum, description. */
export function describeArgument(d: JoiDescription): ArgumentDescription {
  const type = typeOf(d);
  const arg: ArgumentDescription = { ...(type ? { type } : {}), required: d.flags?.presence === 'required' };
  if (d.flags?.default !== undefined && typeof d.flags.default !== 'function') arg.default = d.flags.default;
  if (d.flags?.only && d.allow) arg.enum = d.allow.filter((v) => v !== '' && v !== null);
  const itemType = d.items?.[0] && typeOf(d.items[0]);
  if (itemType) arg.items = { type: itemType };
  if (d.flags?.description) arg.description = d.flags.description;
  if (d.examples?.length) arg.example = d.examples[0];
  return arg;
}

const descriptionCache = new WeakMap<Joi.Schema, JoiDescription>();

/** `schema.describe()`, once per schema: it is costly on the large write schemas. */
export function describeSchema(schema: Joi.Schema): JoiDescription {
  let description = descriptionCache.get(schema);
  if (!description) {
    description = schema.describe() as JoiDescription;
    descriptionCache.set(schema, description);
  }
  return description;
}

/** Every parameter of an input schema, described. */
export function describeArguments(schema: Joi.ObjectSchema): Record<string, ArgumentDescription> {
  const described = describeSchema(schema);
  const args: Record<string, ArgumentDescription> = {};
  for (const [name, d] of Object.entries(described.keys ?? {})) args[name] = describeArgument(d);
  return args;
}

/** The parameters in a route path (`/events/:id` → `id`). */
export const pathParamsOf = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/** The input key a path parameter fills: its `pathKeys` name (`slug` → `lookup_slug`), else its own. */
export const inputKeyOf = (route: RouteSpec, param: string): string => route.pathKeys?.[param] ?? param;

/** The input keys a route's path fills. */
export const pathInputKeys = (route: RouteSpec): Set<string> =>
  new Set(pathParamsOf(route.path).map((name) => inputKeyOf(route, name)));

export type { JoiDescription };
