import { expect } from 'chai';
import { call, until, type Answer } from '../reliability/support/http';
import { openPrivateWorld, type PrivateWorld } from '../reliability/support/privateWorld';
import { pool } from '../reliability/support/writes';
import { testWorld } from './harness';
import type { Received, WebhookReceiver } from './webhookReceiver';

const ROOT = '/calendar/events/v1';

/** Retries, timeouts and polls in tens of milliseconds, receivers on loopback: a scenario runs in seconds. */
export const FAST_WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_MS: '400',
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_POLL_MS: '50',
  SYNC_POLL_MS: '50',
};

/** An API on the test servers with FAST_WEBHOOKS and `env`; its sync worker in-process unless `worker` is false. */
export function openWebhookWorld(env: Record<string, string> = {}, worker = true): Promise<PrivateWorld> {
  const { config } = testWorld();
  return openPrivateWorld({
    mongoUrl: config.mongo.url!,
    elasticsearchUrl: config.elasticsearch.url!,
    worker,
    env: { ...FAST_WEBHOOKS, ...env },
  });
}

/** An administrator's calls to the API of `world()` (read at each call: a test may open a new world). */
export function adminCalls(world: () => PrivateWorld) {
  const send = (method: string, path: string, body?: unknown): Promise<Answer> =>
    call(world().baseUrl, method, `${ROOT}${path}`, body, { key: world().adminKey });
  const created = (res: Answer): number => {
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as number;
  };
  /** A published event (1 June 2030 unless `extra` says otherwise). */
  const newEvent = async (title: string, extra: Record<string, unknown> = {}): Promise<number> => {
    const body = { title, status: 'publish', start_date: '2030-06-01 20:00:00', end_date: '2030-06-01 23:00:00' };
    return created(await send('POST', '/events', { ...body, ...extra }));
  };
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, body: unknown) => send('POST', path, body),
    patch: (path: string, body: unknown) => send('PATCH', path, body),
    delete: (path: string) => send('DELETE', path),
    newEvent,

    /** `count` events titled `title 0`, `title 1`..., four written at a time. */
    newEvents: (title: string, count: number): Promise<number[]> =>
      pool(
        Array.from({ length: count }, (_, n) => n),
        4,
        (n) => newEvent(`${title} ${n}`),
      ),

    /** Subscribes `receiver` to `filters`; the receiver checks signatures with the new secret. */
    async subscribe(receiver: WebhookReceiver, filters: unknown): Promise<number> {
      const res = await send('POST', '/subscriptions', { url: receiver.url, filters });
      const id = created(res);
      receiver.secret = res.body.secret as string;
      return id;
    },
  };
}

/** The messages `receiver` accepted so far from `subscription` about `event`. */
export const acceptedSoFar = (receiver: WebhookReceiver, subscription: number, event: number): Received[] =>
  receiver.accepted.filter((r) => r.json.subscription_id === subscription && r.json.event_id === event);

/** The messages `receiver` accepted from `subscription` about `event`, once `count` of them arrived. */
export async function acceptedMessages(
  receiver: WebhookReceiver,
  subscription: number,
  event: number,
  count: number,
): Promise<Received[]> {
  const of = () => acceptedSoFar(receiver, subscription, event);
  await until(
    async () => of().length >= count,
    20_000,
    () => `${count} messages, got ${JSON.stringify(of().map((r) => r.json.type))}`,
  );
  return of();
}
