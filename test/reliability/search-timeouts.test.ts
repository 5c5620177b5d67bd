import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../config';
import { createSearchClient, pingSearch } from '../../src/search/client';
import { searchIndex } from '../../src/services/queries/listing';
import type { Services } from '../../src/services/container';
import { sleep } from './support/http';

const EMPTY_RESULT = JSON.stringify({
  took: 1,
  timed_out: false,
  _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
  hits: { total: { value: 0, relation: 'eq' }, hits: [] },
});

/**
 * A fake Elasticsearch where everything hangs until the client gives up, except `/quick/_search`,
 * answered only once the latest hanging request was given up: so a quick list is surely in flight
 * when another request's deadline passes.
 */
function fakeElasticsearch(): Promise<http.Server> {
  let latestHangingGivenUp: Promise<void> = Promise.resolve();
  const server = http.createServer((req, res) => {
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/quick/')) void latestHangingGivenUp.then(() => res.end(EMPTY_RESULT));
    else latestHangingGivenUp = new Promise((resolve) => res.on('close', () => resolve()));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('reliability: search timeouts stay per request', () => {
  let server: http.Server;
  let services: Services;

  before(async () => {
    server = await fakeElasticsearch();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = loadConfig({ NODE_ENV: 'test', ELASTICSEARCH_URL: url, ELASTICSEARCH_TIMEOUT_MS: '2000' });
    services = { config, search: createSearchClient({ url, timeoutMs: 2_000 }) } as unknown as Services;
  });

  after(async () => {
    await services.search.close();
    server.closeAllConnections();
    server.close();
  });

  it('a list that times out (503) does not abort another list in flight on the same client', async () => {
    const hanging = searchIndex(services, { index: 'hang' }).then(
      () => 'answered',
      (err: { status?: number; code?: string }) => `${err.status} ${err.code}`,
    );
    // Started apart (requests started together share a deadline), within the hanging one's time.
    await sleep(1_000);
    const quick = await searchIndex(services, { index: 'quick' });
    expect(quick.hits.hits).to.deep.equal([]);
    expect(await hanging).to.equal('503 search-unavailable');
  });

  it('a readiness probe that gives up does not abort a list in flight', async () => {
    const probe = pingSearch(services.search);
    await sleep(100);
    const quick = await searchIndex(services, { index: 'quick' });
    expect(quick.hits.hits).to.deep.equal([]);
    expect(await probe).to.equal(false);
  });
});
