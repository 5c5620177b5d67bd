import { CalendarError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors';
import { isEditor } from '../../domain/policy';
import { route } from '../../http/route';
import type { AppContext, RouteSpec } from '../../http/types';
import { generateSecret } from '../../lib/standardWebhooks';
import type { Services } from '../../services/container';
import { checkFilters } from '../../services/webhooks/subscriptionFilters';
import type { SubscriptionChange, SubscriptionDoc } from '../../storage/webhooks/subscriptions';
import { urlProblem } from '../../lib/publicAddress';
import { presentDelivery, presentSubscription, subscriptionUrl } from './present';
import { byIdSchema, createSchema, deliveriesSchema, listSchema, prefixed, updateSchema, validFilters } from './schema';

const RESOURCE = 'subscriptions';
const ACCESS_NOTE = 'Administrators and editors only (403 for other roles).';

/** Saved searches belong to the site's staff: administrators and editors. */
function requireStaff(ctx: AppContext): void {
  if (!isEditor(ctx.state.principal))
    throw new ForbiddenError('rest_forbidden', 'Only administrators and editors may manage webhook subscriptions.');
}

const notFound = (id: number) =>
  new NotFoundError('rest-subscription-not-found', `The subscription ${id} was not found.`);

/** Webhook subscriptions on saved searches (EXTENSIONS part 18). */
export function subscriptionRoutes(services: Services): RouteSpec[] {
  const { config } = services;
  const { subscriptions, matches, deliveries } = services.webhooks;

  async function find(id: number): Promise<SubscriptionDoc> {
    const doc = Number.isSafeInteger(id) ? await subscriptions.get(id) : null;
    if (!doc) throw notFound(id);
    return doc;
  }

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
    const problem = input.url === undefined ? null : urlProblem(input.url, config.webhooks.allowPrivate);
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

  const paged = (input: { page: number; per_page: number }) => ({
    skip: (input.page - 1) * input.per_page,
    limit: input.per_page,
  });
  const pages = (total: number, perPage: number) => Math.ceil(total / perPage);

  return [
    route({
      methods: ['POST'],
      path: '/subscriptions',
      resource: RESOURCE,
      summary: 'Create a webhook subscription on a saved search',
      description: `Saves a search (\`filters\`: GET /events parameters) whose matches are POSTed to \`url\`. The answer carries the secret, shown only once. ${ACCESS_NOTE}`,
      access: 'write',
      input: createSchema,
      response: 'SubscriptionCreated',
      errors: [400, 503],
      handler: async (ctx) => {
        requireStaff(ctx);
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
    route({
      methods: ['GET'],
      path: '/subscriptions',
      resource: RESOURCE,
      summary: 'List webhook subscriptions',
      description: `Every subscription, oldest first. ${ACCESS_NOTE}`,
      access: 'write',
      input: listSchema,
      response: 'SubscriptionList',
      errors: [400, 503],
      handler: async (ctx) => {
        requireStaff(ctx);
        const { skip, limit } = paged(ctx.input);
        const { items, total } = await subscriptions.page(skip, limit);
        ctx.body = {
          subscriptions: items.map((doc) => presentSubscription(config, doc)),
          total,
          total_pages: pages(total, limit),
        };
      },
    }),
    route({
      methods: ['GET'],
      path: '/subscriptions/:id',
      resource: RESOURCE,
      summary: 'Read a webhook subscription',
      description: `The subscription, its status and why it was disabled, if it was (never its secret). ${ACCESS_NOTE}`,
      access: 'write',
      input: byIdSchema,
      response: 'Subscription',
      errors: [400, 404, 503],
      handler: async (ctx) => {
        requireStaff(ctx);
        ctx.body = presentSubscription(config, await find(ctx.input.id));
      },
    }),
    route({
      methods: ['PATCH'],
      path: '/subscriptions/:id',
      resource: RESOURCE,
      summary: 'Change a webhook subscription',
      description:
        'Changes the URL, filters, secret or status (`active` enables a disabled subscription again). New filters apply from the next change of each event. ' +
        ACCESS_NOTE,
      access: 'write',
      input: updateSchema,
      response: 'Subscription',
      errors: [400, 404, 503],
      handler: async (ctx) => {
        requireStaff(ctx);
        await find(ctx.input.id);
        const { filters } = await checked(ctx, ctx.input);
        const change: SubscriptionChange = {};
        if (ctx.input.url !== undefined) change.url = ctx.input.url;
        if (filters) change.filters = filters;
        if (ctx.input.status !== undefined) change.status = ctx.input.status;
        if (ctx.input.secret !== undefined) change.secret = sealer().seal(ctx.input.secret);
        const doc = await subscriptions.update(ctx.input.id, change);
        if (!doc) throw notFound(ctx.input.id);
        ctx.body = presentSubscription(config, doc);
      },
    }),
    route({
      methods: ['DELETE'],
      path: '/subscriptions/:id',
      resource: RESOURCE,
      summary: 'Delete a webhook subscription',
      description: `Deletes the subscription, its pending messages and its delivery log. ${ACCESS_NOTE}`,
      access: 'write',
      input: byIdSchema,
      response: 'Deleted',
      errors: [400, 404, 503],
      handler: async (ctx) => {
        requireStaff(ctx);
        const doc = await find(ctx.input.id);
        if (!(await subscriptions.delete(doc._id))) throw notFound(doc._id);
        await Promise.all([matches.deleteSubscription(doc._id), deliveries.deleteSubscription(doc._id)]);
        ctx.body = { id: doc._id, deleted: true };
      },
    }),
    route({
      methods: ['GET'],
      path: '/subscriptions/:id/deliveries',
      resource: RESOURCE,
      summary: "A webhook subscription's delivery log",
      description: `Recent messages, newest first: type, record, status, status code, error and next retry, with the latest attempts. ${ACCESS_NOTE}`,
      access: 'write',
      input: deliveriesSchema,
      response: 'DeliveryList',
      errors: [400, 404, 503],
      handler: async (ctx) => {
        requireStaff(ctx);
        const doc = await find(ctx.input.id);
        const { skip, limit } = paged(ctx.input);
        const { items, total } = await deliveries.page(doc._id, skip, limit);
        ctx.body = { deliveries: items.map(presentDelivery), total, total_pages: pages(total, limit) };
      },
    }),
  ];
}
