import Joi from 'joi';
import { MissingParamsError, ValidationError } from '../domain/errors';
import { requestQuery } from './query';
import type { AppContext } from './types';
import { deepFreeze } from '../lib/memo';
import { SizedCache } from '../lib/sizedCache';

const OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  convert: true,
  stripUnknown: true,
  errors: { wrap: { label: false } },
};

/** Path parameters win over body, body over query string (CONTRACT part 2). */
export function collectInput(query: unknown, body: unknown, params: Record<string, string>): Record<string, unknown> {
  const bodyObject = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  const merged: Record<string, unknown> = Object.create(null);
  for (const source of [query ?? {}, bodyObject, params]) {
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) merged[key] = value;
  }
  return merged;
}

/**
 * Validates `input` against `schema`, or throws a ValidationError naming every bad parameter as
 * the client sent it (`names`: input key → that name, e.g. `lookup_slug` → the path's `slug`).
 */
export function validateInput<T>(
  schema: Joi.ObjectSchema<T>,
  input: Record<string, unknown>,
  names: Record<string, string> = {},
): T {
  const { value, error } = schema.validate(input, OPTIONS);
  if (error) {
    const params: Record<string, string> = {};
    const missing: string[] = [];
    for (const detail of error.details) {
      const key = String(detail.path[0] ?? detail.context?.key ?? 'body');
      const name = names[key] ?? key;
      params[name] ??= names[key] ? detail.message.replace(key, name) : detail.message;
      if (detail.type === 'any.required' && detail.path.length === 1) missing.push(name);
    }
    throw missing.length > 0 ? new MissingParamsError(missing, params) : new ValidationError(params);
  }
  return value as T;
}

/**
 * Characters of the validated reads remembered, every route's together (their keys and their
 * inputs as JSON), the least recently used forgotten first: the same pages and records are asked
 * for again and again, and those stay however many others pass by.
 */
export const REMEMBERED_INPUT_CHARS = 500_000;
/** Longer reads (path values and query string) are validated every time: remembering them would let anyone fill memory. */
const REMEMBERED_QUERY_MAX_CHARS = 512;

const rememberedInputs = new SizedCache<{ input: unknown; length: number }>(REMEMBERED_INPUT_CHARS);
let routesRemembering = 0;

/**
 * The request's validated parameters, as a function of the request. Reads (GET and HEAD, whose
 * bodies are never read) depend on their path parameters and query string alone, so their input
 * is validated once per (short) pair and shared, frozen: joi was nearly a tenth of a list's CPU
 * and of a revalidated read's. A one-off value (ONE_OFF: a walk's cursor, new on every page) is
 * left out of what is remembered, and validated alone. Route schemas are pure (no default
 * computed from the clock): relative dates stay texts, resolved by the search layer.
 */
export function inputOf<I>(schema: Joi.ObjectSchema<I>, pathKeys: Record<string, string> = {}): (ctx: AppContext) => I {
  const pathNames = Object.fromEntries(Object.entries(pathKeys).map(([name, key]) => [key, name]));
  const paramsOf = (ctx: AppContext): Record<string, string> => {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(ctx.params ?? {})) params[pathKeys[name] ?? name] = value as string;
    return params;
  };
  const route = ++routesRemembering;
  /** The input of a short read (`query`: the parameters it stands for, else the request's), remembered; else null. */
  const rememberedRead = (ctx: AppContext, read: string, query: Record<string, unknown> | null): I | null => {
    if (read.length > REMEMBERED_QUERY_MAX_CHARS) return null;
    const key = `${route} ${read}`;
    const remembered = rememberedInputs.get(key);
    if (remembered) return remembered.input as I;
    const input = deepFreeze(
      validateInput<I>(schema, collectInput(query ?? requestQuery(ctx), undefined, paramsOf(ctx)), pathNames),
    );
    rememberedInputs.set(key, { input, length: key.length + JSON.stringify(input).length });
    return input;
  };
  const tokens = oneOffParams(schema);
  /** A read with one-off values: the rest remembered without them, they validated alone; null if either fails. */
  const withOneOffs = (ctx: AppContext, { names, schema: alone }: OneOffParams): I | null => {
    const query = requestQuery(ctx);
    const rest = Object.fromEntries(Object.entries(query).filter(([name]) => !names.includes(name)));
    const given = alone.validate(Object.fromEntries(names.map((name) => [name, query[name]])), OPTIONS);
    if (given.error) return null;
    const input = rememberedRead(ctx, JSON.stringify([rest, ...Object.values(ctx.params ?? {})]), rest);
    return input && { ...input, ...given.value };
  };
  return (ctx) => {
    const body = (ctx.request as { body?: unknown }).body;
    if (Array.isArray(body)) throw new ValidationError({ body: 'The request body must be a JSON object.' });
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const remembered = tokens?.names.some((name) => ctx.querystring.includes(`${name}=`))
        ? withOneOffs(ctx, tokens)
        : rememberedRead(ctx, JSON.stringify([ctx.querystring, ...Object.values(ctx.params ?? {})]), null);
      if (remembered) return remembered;
    }
    return validateInput<I>(schema, collectInput(requestQuery(ctx), body, paramsOf(ctx)), pathNames);
  };
}

/** The joi meta marking a parameter whose values are one-off tokens (a walk's cursor). */
export const ONE_OFF = { oneOff: true } as const;

interface OneOffParams {
  names: string[];
  schema: Joi.ObjectSchema;
}

/** The parameters of `schema` marked ONE_OFF, and a schema of them alone; null when none is. */
function oneOffParams(schema: Joi.ObjectSchema): OneOffParams | null {
  const keys = (schema.describe().keys ?? {}) as Record<string, { metas?: object[] }>;
  const names = Object.keys(keys).filter((name) => keys[name]!.metas?.some((meta) => 'oneOff' in meta));
  if (names.length === 0) return null;
  return { names, schema: Joi.object(Object.fromEntries(names.map((name) => [name, schema.extract(name)]))) };
}
