import type Joi from 'joi';
import type { Middleware } from 'koa';
import { MissingParamsError, ValidationError } from '../errors';
import { requestQuery } from './query';
import type { AppState } from './types';

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
  schema: Joi.ObjectSchema,
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

/** Fills `ctx.input` with the request's validated parameters. */
export function validate(schema: Joi.ObjectSchema, pathKeys: Record<string, string> = {}): Middleware<AppState> {
  const pathNames = Object.fromEntries(Object.entries(pathKeys).map(([name, key]) => [key, name]));
  return async (ctx, next) => {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries((ctx as unknown as { params?: Record<string, string> }).params ?? {})) {
      params[pathKeys[name] ?? name] = value;
    }
    const body = (ctx.request as { body?: unknown }).body;
    if (Array.isArray(body)) throw new ValidationError({ body: 'The request body must be a JSON object.' });
    const input = collectInput(requestQuery(ctx), body, params);
    (ctx as unknown as { input: unknown }).input = validateInput(schema, input, pathNames);
    await next();
  };
}
