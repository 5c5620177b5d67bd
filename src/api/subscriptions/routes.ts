import { lookup } from 'node:dns/promises';
import { CalendarError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors';
import { isEditor } from '../../domain/policy';
import { route, type TypedRoute } from '../../http/route';
import type { AppContext, RouteSpec } from '../../http/types';
import { generateSecret } from '../../lib/standardWebhooks';
import type { Services } from '../../services/container';
import { pageCount, pageRequest } from '../../services/queries/listing';
import { checkFilters } from '../../services/webhooks/subscriptionFilters';
import type { SubscriptionChange, SubscriptionDoc } from '../../storage/webhooks/subscriptions';
import type { DeliveryDoc, DeliveryKey } from '../../storage/webhooks/deliveries';
import { bindingOf, issueCursor, readCursor, refusePageWithCursor } from '../../http/cursor';
import { requirePage } from '../../http/listPage';
import { tokenSecretOf } from '../../storage/tokenSecret';
import { resolvedUrlProblem, urlProblem } from '../../lib/publicAddress';
import { presentDelivery, presentSubscription, subscriptionUrl } from './present';
import {
  byIdSchema,
  createSchema,
  deliveriesSchema,
  listSchema,
  prefixed,
  SUBSCRIPTION_PAGE_LIMITS,
  updateSchema,
  validFilters,
} from './schema';

const RESOURCE = 'subscriptions';
const ACCESS_NOTE = 'Administrators and editors only (403 for other roles).';

/** How long a subscription's write waits for its URL's host name to resolve (delivery checks it again anyway). */
const URL_RESOLVE_TIMEOUT_MS = 1_000;

const resolveHost = (host: string) => lookup(host, { all: true });

/** Saved searches belong to the site's staff: administrators and editors. */
function requireStaff(ctx: AppContext): void {
  if (!isEditor(ctx.state.principal))
    throw new ForbiddenError('rest_forbidden', 'Only administrators and editors may manage webhook subscriptions.');
}

/** A route of this resource: a key is needed, and the handler runs for staff only. */
const staffRoute = <I>(spec: Omit<TypedRoute<I>, 'resource' | 'access'>): TypedRoute<I> =>
  route({
    ...spec,
    resource: RESOURCE,
    access: 'write',
    handler: async (ctx) => {
      requireStaff(ctx);
      await spec.handler(ctx);
    },
  });

/** A list of these documents, how it reads a page and which keys order it. */
interface ListOfDocs<T, K> {
  /** Its singular name: the cursor's list, the 404 past its last page. */
  name: string;
  read(skip: number, limit: number, after?: K): Promise<{ items: T[]; total: number }>;
  /** The keys a cursor holds (JSON values). */
  keyOf(item: T): (string | number)[];
  keyFrom(values: unknown[]): K;
}

/** This request's address at the public one (`PUBLIC_API_URL`), with `cursor` in place of the one it had. */
function withCursor(ctx: AppContext, apiUrl: string, cursor: string): string {
  const params = new URLSearchParams(ctx.querystring);
  params.set('cursor', cursor);
  return `${apiUrl}${ctx.path}?${params.toString()}`;
}

/** `doc`, the subscription `id` when it exists, or 404 (naming `id` as the path wrote it). */
function found<T>(doc: T | null, id: number | string): T {
  if (!doc) throw new NotFoundError('rest-subscription-not-found', `The subscription ${id} was not found.`);
  return doc;
}

/** Webhook subscriptions on saved searches (EXTENSIONS part 18). */
export function subscriptionRoutes(services: Services): RouteSpec[] {
  const { config } = services;
  const { subscriptions, matches, deliveries } = services.webhooks;

  /** The subscription addressed by the route, or 404: an ID past 2^53 is named as the path wrote it, not as 1e+23. */
  const load = async (ctx: { input: { id: number }; params?: { id?: string } }): Promise<SubscriptionDoc> => {
    const { id } = ctx.input;
    if (!Number.isSafeInteger(id)) return found<SubscriptionDoc>(null, ctx.params?.id ?? String(id));
    return found(await subscriptions.get(id), id);
  };

  function sealer() {
    const { box } = services.webhooks;
    if (!box)
      throw new CalendarError(
        503,
        'webhooks-not-configured',
        'Webhooks need WEBHOOK_SECRET_KEY, which this server lacks (see docs/operations.md).',
      );
    return box;
  }

  /** Checks the URL and the filters together, so a request learns every bad parameter at once. */
  async function checked(
    ctx: AppContext,
    input: { url?: string; filters?: unknown },
  ): Promise<{ filters?: Record<string, unknown> }> {
    const problems: Record<string, string> = {};
    const { allowPrivate } = config.webhooks;
    const problem =
      input.url === undefined
        ? null
        : (urlProblem(input.url, allowPrivate) ??
          (await resolvedUrlProblem(input.url, allowPrivate, resolveHost, URL_RESOLVE_TIMEOUT_MS)));
    if (problem) problems.url = `url ${problem}`;
    let filters: Record<string, unknown> | undefined;
    if (input.filters !== undefined) {
      try {
        filters = validFilters(input.filters);
        await checkFilters(services, filters, ctx.state.language);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        const named = Object.keys(err.params).every((name) => name.startsWith('filters.'));
        Object.assign(problems, named ? err.params : prefixed(err.params));
      }
    }
    if (Object.keys(problems).length) throw new ValidationError(problems);
    return { filters };
  }

  /**
   * A page of one of these MongoDB lists: numbered (`page`; past the last one, 404), or a walk
   * (`cursor`) by the list's keys: each entry once, in order, the cursor holding the last key.
   */
  async function listPage<T, K>(
    ctx: AppContext & { input: { page: number; per_page: number; cursor?: string } },
    list: ListOfDocs<T, K>,
  ): Promise<{ items: T[]; total: number; paging: Record<string, unknown> }> {
    const { page, per_page: perPage, cursor } = ctx.input;
    if (cursor === undefined) {
      const { from, size } = pageRequest(page, perPage, SUBSCRIPTION_PAGE_LIMITS);
      const { items, total } = await list.read(from, size);
      const pages = pageCount(total, perPage);
      requirePage(list.name, page, pages);
      return { items, total, paging: { total_pages: pages } };
    }
    refusePageWithCursor(ctx);
    const secret = await tokenSecretOf(services.db, config.integration.tokenSecret);
    const binding = bindingOf(list.name, ctx.state.language, ctx.state.principal, ctx.input);
    const resumed = cursor === '' ? null : readCursor(secret, binding, cursor);
    const after = resumed?.position.after;
    const read = await list.read(0, perPage + 1, after ? list.keyFrom(after) : undefined);
    const items = read.items.slice(0, perPage);
    const last = items[items.length - 1];
    const more = read.items.length > perPage && last !== undefined;
    const next = more
      ? issueCursor(secret, binding, { pit: '', after: list.keyOf(last), seen: 0, total: read.total }, new Date())
      : null;
    if (!next) return { items, total: read.total, paging: { next_cursor: null } };
    const nextUrl = withCursor(ctx, config.apiUrl, next);
    ctx.set('Link', `<${nextUrl}>; rel="next"`);
    return { items, total: read.total, paging: { next_cursor: next, next_rest_url: nextUrl } };
  }

  const subscriptionList: ListOfDocs<SubscriptionDoc, number> = {
    name: 'subscription',
    read: (skip, limit, after) => subscriptions.page(skip, limit, after),
    keyOf: (doc) => [doc._id],
    keyFrom: ([id]) => Number(id),
  };
  const deliveryList = (subscription: number): ListOfDocs<DeliveryDoc, DeliveryKey> => ({
    name: 'delivery',
    read: (skip, limit, after) => deliveries.page(subscription, skip, limit, after),
    keyOf: (doc) => [doc.occurredAt.getTime(), doc.seq, doc._id],
    keyFrom: ([at, seq, id]) => ({ occurredAt: new Date(Number(at)), seq: Number(seq), _id: String(id) }),
  });

  return [
    staffRoute({
      methods: ['POST'],
      path: '/subscriptions',
      summary: 'Create a webhook subscription on a saved search',
      description: `Saves a search (\`filters\`: GET /events parameters) whose matches are POSTed to \`url\`. The answer carries the secret, shown only once. ${ACCESS_NOTE}`,
      input: createSchema,
      response: 'SubscriptionCreated',
      errors: [400, 503],
      handler: async (ctx) => {
        const box = sealer();
        const { filters } = await checked(ctx, ctx.input);
        const secret = ctx.input.secret ?? generateSecret();
        const doc = await subscriptions.create({
          url: ctx.input.url,
          filters: filters ?? {},
          language: ctx.state.language,
          secret: box.seal(secret),
          createdBy: ctx.state.principal.keyId,
        });
        ctx.status = 201;
        ctx.set('Location', subscriptionUrl(config, doc._id));
        ctx.body = { ...presentSubscription(config, doc), secret };
      },
    }),
    staffRoute({
      methods: ['GET'],
      path: '/subscriptions',
      summary: 'List webhook subscriptions',
      description: `Every subscription, oldest first. ${ACCESS_NOTE}`,
      input: listSchema,
      response: 'SubscriptionList',
      errors: [400, 404, 410, 503],
      handler: async (ctx) => {
        const { items, total, paging } = await listPage(ctx, subscriptionList);
        ctx.body = { subscriptions: items.map((doc) => presentSubscription(config, doc)), total, ...paging };
      },
    }),
    staffRoute({
      methods: ['GET'],
      path: '/subscriptions/:id',
      summary: 'Read a webhook subscription',
      description: `The subscription, its status and why it was disabled, if it was (never its secret). ${ACCESS_NOTE}`,
      input: byIdSchema,
      response: 'Subscription',
      errors: [400, 404, 503],
      handler: async (ctx) => {
        ctx.body = presentSubscription(config, await load(ctx));
      },
    }),
    staffRoute({
      methods: ['PATCH'],
      path: '/subscriptions/:id',
      summary: 'Change a webhook subscription',
      description:
        'Changes the URL, filters, secret or status (`active` enables a disabled subscription again). New filters apply from the next change of each event. ' +
        ACCESS_NOTE,
      input: updateSchema,
      response: 'Subscription',
      errors: [400, 404, 503],
      handler: async (ctx) => {
        const before = await load(ctx);
        const { filters } = await checked(ctx, ctx.input);
        const change: SubscriptionChange = {};
        if (ctx.input.url !== undefined) change.url = ctx.input.url;
        if (filters) change.filters = filters;
        if (ctx.input.status !== undefined) change.status = ctx.input.status;
        if (ctx.input.secret !== undefined) change.secret = sealer().seal(ctx.input.secret);
        // Enabled again: its waiting messages get a retry window of their own, from now (while it
        // is still disabled, so that none is tried before).
        if (before.status === 'disabled' && change.status === 'active') await deliveries.retryAfresh(before._id);
        ctx.body = presentSubscription(config, found(await subscriptions.update(ctx.input.id, change), ctx.input.id));
      },
    }),
    staffRoute({
      methods: ['DELETE'],
      path: '/subscriptions/:id',
      summary: 'Delete a webhook subscription',
      description: `Deletes the subscription, its pending messages and its delivery log. ${ACCESS_NOTE}`,
      input: byIdSchema,
      response: 'Deleted',
      errors: [400, 404, 503],
      handler: async (ctx) => {
        const doc = await load(ctx);
        found(await subscriptions.delete(doc._id), doc._id);
        await Promise.all([matches.deleteSubscription(doc._id), deliveries.deleteSubscription(doc._id)]);
        ctx.body = { id: doc._id, deleted: true };
      },
    }),
    staffRoute({
      methods: ['GET'],
      path: '/subscriptions/:id/deliveries',
      summary: "A webhook subscription's delivery log",
      description: `Recent messages, newest first: type, record, status, status code, error and next retry, with the latest attempts. ${ACCESS_NOTE}`,
      input: deliveriesSchema,
      response: 'DeliveryList',
      errors: [400, 404, 410, 503],
      handler: async (ctx) => {
        const doc = await load(ctx);
        const { items, total, paging } = await listPage(ctx, deliveryList(doc._id));
        ctx.body = { deliveries: items.map(presentDelivery), total, ...paging };
      },
    }),
  ];
}
