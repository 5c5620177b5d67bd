import { Client } from '@elastic/elasticsearch';

export interface SearchClientOptions {
  url: string;
  timeoutMs: number;
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

/**
 * Options of a request that must give up after `ms`. Not `requestTimeout`: with the undici
 * connection (@elastic/transport 8.4), a per-request timeout that differs from the client's
 * aborts every request in flight on that client when it fires (they share one abort emitter),
 * so one slow list, or a /readyz probe, would fail unrelated lists. A signal of its own aborts
 * only this request (RequestAbortedError).
 */
export function giveUpAfter(ms: number): { signal: AbortSignal; maxRetries: 0 } {
  return { signal: AbortSignal.timeout(ms), maxRetries: 0 };
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
