import type Joi from 'joi';
import type { RouteSpec } from '../../http/types';

export interface ArgumentDescription {
  type: string;
  required: boolean;
  default?: unknown;
  enum?: unknown[];
  items?: { type: string };
  description?: string;
}

interface JoiDescription {
  type: string;
  flags?: { presence?: string; default?: unknown; description?: string; only?: boolean };
  allow?: unknown[];
  items?: JoiDescription[];
  keys?: Record<string, JoiDescription>;
  rules?: { name: string }[];
  matches?: { schema: JoiDescription }[];
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
  alternatives: 'mixed',
  any: 'mixed',
};

function typeOf(d: JoiDescription): string {
  if (d.type === 'number' && d.rules?.some((r) => r.name === 'integer')) return 'integer';
  return TYPE_NAMES[d.type] ?? d.type;
}

/** Describes one parameter from its joi schema: type, required, default, enum, description. */
export function describeArgument(d: JoiDescription): ArgumentDescription {
  const arg: ArgumentDescription = { type: typeOf(d), required: d.flags?.presence === 'required' };
  if (d.flags?.default !== undefined && typeof d.flags.default !== 'function') arg.default = d.flags.default;
  if (d.flags?.only && d.allow) arg.enum = d.allow.filter((v) => v !== '' && v !== null);
  if (d.items?.[0]) arg.items = { type: typeOf(d.items[0]) };
  if (d.flags?.description) arg.description = d.flags.description;
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

/** The input keys a route's path fills: its parameters under their `pathKeys` names. */
export const pathInputKeys = (route: RouteSpec): Set<string> =>
  new Set(pathParamsOf(route.path).map((name) => route.pathKeys?.[name] ?? name));

export type { JoiDescription };
