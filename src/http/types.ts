import type { ParameterizedContext } from 'koa';
import type Joi from 'joi';
import type { Language } from '../../config';
import type { Logger } from '../lib/log';
import type { RequestLimits } from './rateLimit';
import type { Principal } from '../domain/principal';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AppState {
  requestId: string;
  /** Logger bound to this request's id. */
  log: Logger;
  language: Language;
  /** Language named by the path prefix, if any (affects `rest_url`s). */
  pathLanguage: Language | null;
  principal: Principal;
  /** Failed authentications and walks started per address (src/http/rateLimit.ts), set with `principal`. */
  limits: RequestLimits;
}

export type AppContext = ParameterizedContext<AppState>;

/** A request after validation (./validate.ts): `input` holds the converted, validated parameters. */
export type RequestContext<I> = AppContext & { input: I };

/** Who may call a route: anyone (reads), any caller with a valid key (writes), or reads that need a key (exports). */
export type Access = 'read' | 'write' | 'key';

/**
 * One route of the interface, as data: the router, the namespace index and the OpenAPI document
 * are all generated from the same table. Routes are written with `route()` (./route.ts), which
 * types `ctx.input` from the `input` schema; the table holds them as `RouteSpec` (input unknown).
 */
export interface RouteSpec<I = unknown> {
  methods: Method[];
  /** Path relative to the namespace root, with `:name` parameters, e.g. `/events/:id`. */
  path: string;
  /** Resource this route belongs to, for grouping in documentation. */
  resource: string;
  summary: string;
  description?: string;
  /** Path, query and body parameters, merged (body wins over query, path wins over both). */
  input: Joi.ObjectSchema<I>;
  access: Access;
  /** Renames path parameters in `input` (e.g. the `:slug` that addresses a record, vs a new `slug` in the body). */
  pathKeys?: Record<string, string>;
  /** Name of the documented response schema (see src/api/namespace/openapi.ts). */
  response?: string;
  /** Statuses this route can answer besides 200/201, for documentation. */
  errors?: number[];
  handler(ctx: RequestContext<I>): Promise<void>;
}
