import type { Schema } from './openapiParams';

/** Response shapes of the webhook subscriptions (EXTENSIONS part 18), with examples. */

const str: Schema = { type: 'string' };
const instant: Schema = { type: 'string', format: 'date-time', example: '2026-05-01T18:30:00.000Z' };
const nullable = (schema: Schema): Schema => ({ ...schema, nullable: true });

const subscriptionProperties: Record<string, Schema> = {
  id: { type: 'integer', example: 7 },
  url: { type: 'string', format: 'uri', example: 'https://partner.example/hooks/calendar' },
  filters: {
    type: 'object',
    description: '`GET /events` parameters, as validated (without paging and ordering)',
    example: { search: 'jazz', categories: ['concerts'], geoloc_lat: 45.76, geoloc_lng: 4.84, geoloc_radius: 30 },
  },
  language: { type: 'string', enum: ['en', 'fr', 'de'], description: 'Language filters and records are in' },
  status: { type: 'string', enum: ['active', 'disabled'] },
  disabled_reason: nullable({ ...str, example: null }),
  disabled_at: nullable(instant),
  failing_since: nullable({
    ...instant,
    description: 'Deliveries have failed since then (null: the last one succeeded)',
  }),
  created: instant,
  modified: instant,
  rest_url: { type: 'string', format: 'uri' },
};

const closed = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const attempt = closed({
  at: instant,
  status_code: nullable({ type: 'integer', example: 503 }),
  error: nullable({ ...str, example: 'HTTP 503' }),
  duration_ms: { type: 'integer' },
});

const delivery = closed({
  id: { ...str, description: 'The message ID, sent as Webhook-Id', example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W' },
  type: { type: 'string', enum: ['match.added', 'match.updated', 'match.removed'] },
  event_id: { type: 'integer' },
  occurred_at: instant,
  record: nullable({ type: 'object', description: 'The event as an anonymous list showed it (null on removal)' }),
  status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
  attempts: { type: 'integer' },
  last_attempt_at: nullable(instant),
  status_code: nullable({ type: 'integer', example: 200 }),
  error: nullable(str),
  next_retry: nullable({ ...instant, description: 'When the next attempt is due (null once delivered or failed)' }),
  log: { type: 'array', items: attempt, description: 'The latest attempts, oldest first' },
});

/** A page: numbered (`total_pages`) or of a walk (`next_cursor`, null at the end). */
const listOf = (name: string, item: Schema): Schema => ({
  ...closed({ [name]: { type: 'array', items: item }, total: { type: 'integer' } }),
  properties: {
    [name]: { type: 'array', items: item },
    total: { type: 'integer' },
    total_pages: { type: 'integer', description: 'Numbered pages (`page`)' },
    next_cursor: { type: 'string', nullable: true, description: 'A walk (`cursor`): the next page, null at the end' },
    next_rest_url: {
      type: 'string',
      format: 'uri',
      description: 'A walk: the address of the next page, when there is one',
    },
  },
});

const subscription = closed(subscriptionProperties);

export const WEBHOOK_SCHEMAS: Record<string, Schema> = {
  Subscription: subscription,
  SubscriptionCreated: closed(
    {
      ...subscriptionProperties,
      secret: {
        ...str,
        description: 'The signing secret, shown only in this answer',
        example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      },
    },
    'The new subscription with its secret (shown once)',
  ),
  SubscriptionList: listOf('subscriptions', subscription),
  DeliveryList: listOf('deliveries', delivery),
};
