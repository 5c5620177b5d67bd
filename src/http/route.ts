import type BaseJoi from 'joi';
import { Joi } from './params';
import type { RouteSpec } from './types';

declare const inputType: unique symbol;

/** A joi object schema checked at compile time against the input type `I` (see `inputSchema`). */
export type InputSchema<I> = BaseJoi.ObjectSchema<I> & { readonly [inputType]: I };

/** A property's type without what `allow(null, '')` and optional keys add. */
type Bare<T> = Exclude<T, null | undefined | ''>;

/** The kind of joi schema a property of type `T` needs; unions of kinds need any schema (alternatives). */
type SchemaOf<T> = [Bare<T>] extends [boolean]
  ? BaseJoi.BooleanSchema<any>
  : [Bare<T>] extends [number]
    ? BaseJoi.NumberSchema<any>
    : [Bare<T>] extends [string]
      ? BaseJoi.StringSchema<any>
      : [Bare<T>] extends [readonly unknown[]]
        ? BaseJoi.ArraySchema<any>
        : BaseJoi.Schema;

/** One joi schema per property of `I`, optional ones included, each of the property's kind. */
export type InputKeys<I> = { [P in keyof I]-?: SchemaOf<I[P]> };

/**
 * `inputSchema<I>()({...keys})`: the joi object schema of route input `I`. It does not compile
 * unless the keys are exactly the properties of `I` (spread keys included) and each schema is of
 * its property's kind (`flag()` for a boolean, `list()` for an array...). What joi adds at run
 * time (`required()`, `default()`, conversions) is for the schema to get right, as always.
 */
export const inputSchema =
  <I>() =>
  <K extends InputKeys<I>>(keys: K & Record<Exclude<keyof K, keyof I>, never>): InputSchema<I> =>
    Joi.object(keys) as InputSchema<I>;

/** `base` with the keys of `E` added (`base.keys(keys)`), typed as both inputs. */
export const withKeys = <I, E>(base: InputSchema<I>, keys: InputKeys<E>): InputSchema<I & E> =>
  (base as BaseJoi.ObjectSchema).keys(keys) as InputSchema<I & E>;

/** A route whose `input` was checked against its input type. */
export interface TypedRoute<I> extends RouteSpec<I> {
  input: InputSchema<I>;
}

/**
 * One route of the table: `handler` receives `ctx.input` typed as the `input` schema's type.
 * `route({ ..., input: inputSchema<FooInput>()({...}), handler: async (ctx) => ctx.input.foo })`.
 */
export const route = <I>(spec: TypedRoute<I>): TypedRoute<I> => spec;
