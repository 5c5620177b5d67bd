import { setMaxListeners } from 'node:events';
import { Client } from '@elastic/elasticsearch';

export interface SearchClientOptions {
  url: string;
  timeoutMs: number;
}

/** The client's transport failures: Elasticsearch did not answer (a refused or lost connection, a timeout). */
const TRANSPORT_ERRORS = new Set(['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError']);

export function isSearchTransportError(err: unknown): boolean {
  return TRANSPORT_ERRORS.has((err as { name?: string })?.name ?? '');
}

/** A transport failure, or a request given up at its deadline (giveUpAfter): no answer either way. */
export function isSearchUnreachable(err: unknown): boolean {
  return isSearchTransportError(err) || (err as { name?: string })?.name === 'RequestAbortedError';
}

/** An Elasticsearch client that fails fast (lists answer 503 within the timeout, never hang). */
export function createSearchClient(options: SearchClientOptions): Client {
  return new Client({
    node: options.url,
    requestTimeout: options.timeoutMs,
    maxRetries: 1,
    compression: false,
  });
}

/** Requests that start within this many milliseconds of each other share one deadline signal. */
const DEADLINE_BUCKET_MS = 25;
const deadlines = new Map<number, { signal: AbortSignal; startedBefore: number }>();

/**
 * A signal that aborts `ms` to `ms + DEADLINE_BUCKET_MS` from now. Requests started in the same
 * few milliseconds share it: a timer, an AbortSignal and a DOMException for every list request
 * were about 5% of its CPU, and a shared signal only ever aborts requests whose time is up.
 */
function deadlineSignal(ms: number): AbortSignal {
  const now = Date.now();
  let deadline = deadlines.get(ms);
  if (!deadline || now >= deadline.startedBefore) {
    const signal = AbortSignal.timeout(ms + DEADLINE_BUCKET_MS);
    // Every request in flight listens to it: not a leak.
    setMaxListeners(0, signal);
    deadline = { signal, startedBefore: now + DEADLINE_BUCKET_MS };
    deadlines.set(ms, deadline);
  }
  return deadline.signal;
}

/**
 * Options of a request that must give up after `ms`. Not `requestTimeout`: with the undici
 * connection (@elastic/transport 8.4), a per-request timeout that differs from the client's
 * aborts every request in flight on that client when it fires (they share one abort emitter),
 * so one slow list, or a /readyz probe, would fail unrelated lists. The client's own timeout
 * does not bound the whole request either (lists to a hanging server took 2.2 s with a 1.5 s
 * one). A deadline signal aborts only requests that started with it (RequestAbortedError).
 */
export function giveUpAfter(ms: number): { signal: AbortSignal; maxRetries: 0 } {
  return { signal: deadlineSignal(ms), maxRetries: 0 };
}

export async function pingSearch(client: Client): Promise<boolean> {
  try {
    return await client.ping({}, giveUpAfter(1000));
  } catch {
    return false;
  }
}

/** Index administration and bulk indexing may take longer than a list may: their own client. */
export const BACKGROUND_TIMEOUT_MS = 60_000;

export function createBackgroundSearchClient(url: string): Client {
  return createSearchClient({ url, timeoutMs: BACKGROUND_TIMEOUT_MS });
}
