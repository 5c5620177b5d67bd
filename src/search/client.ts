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

export async function pingSearch(client: Client): Promise<boolean> {
  try {
    return await client.ping({}, { requestTimeout: 1000, maxRetries: 0 });
  } catch {
    return false;
  }
}

/** Index administration and bulk indexing may take longer than a list may: their own client. */
export const BACKGROUND_TIMEOUT_MS = 60_000;

export function createBackgroundSearchClient(url: string): Client {
  return createSearchClient({ url, timeoutMs: BACKGROUND_TIMEOUT_MS });
}
