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
