import { expect } from 'chai';
import { aliasName } from '../../src/search/indexNames';
import { indexesBehind } from '../../src/indexer/reindex/indexAdmin';
import { api, request } from '../support/api';
import { testWorld } from '../support/harness';
import { readUntil } from '../reliability/support/http';
import { create, daysFromNow, listIds, searchReady, settle, unique } from '../support/lists';

/** Sets (true) or removes (null) an index block on this run's English events index only. */
async function blockEvents(setting: string, value: true | null): Promise<void> {
  const { services, config } = testWorld();
  await services.search.indices.putSettings({
    index: aliasName(config, 'event', 'en'),
    settings: { [setting]: value },
  });
}

/**
 * `/readyz` once its status is `status`, or its last answer after 10 s: each probe gives up after
 * a second, and a machine busy with the other suites may make one give up (as unknown).
 */
const readyzWhen = (status: string) =>
  readUntil(
    () => request('GET', '/readyz'),
    (ready) => ready.body.status === status,
    10_000,
  );

describe('/readyz while Elasticsearch refuses writes', () => {
  before(searchReady);

  // `index.blocks.write` as an operator sets it; `read_only_allow_delete` as Elasticsearch sets it at
  // the disk flood-stage watermark (writes then fail with cluster_block_exception).
  for (const [setting, description] of [
    ['index.blocks.write', 'index write (api)'],
    [
      'index.blocks.read_only_allow_delete',
      'disk usage exceeded flood-stage watermark, index has read-only-allow-delete block',
    ],
  ] as const) {
    it(`reports ${setting} as read-only and degraded, names the index, and keeps serving lists`, async () => {
      const { config } = testWorld();
      const title = unique('Blocked');
      await blockEvents(setting, true);
      let written: { id: number };
      try {
        const ready = await readyzWhen('degraded');
        expect(ready.status).to.equal(200);
        expect(ready.body.status).to.equal('degraded');
        expect(ready.body.services).to.deep.equal({ mongo: 'up', elasticsearch: 'read-only' });
        // The index behind the alias (a reindex earlier in the run may have replaced the first one).
        const [index] = await indexesBehind(testWorld().services.search, aliasName(config, 'event', 'en'));
        expect(ready.body.blocks).to.deep.equal([`${index}: ${description}`]);
        // Reads are served, and a write is kept (MongoDB, the outbox) while the index refuses it.
        expect((await api.get('/events')).status).to.equal(200);
        written = await create('/events', { title, start_date: daysFromNow(3), end_date: daysFromNow(3, '22:00:00') });
      } finally {
        await blockEvents(setting, null);
      }
      const ready = await readyzWhen('ready');
      expect(ready.status).to.equal(200);
      expect(ready.body.status).to.equal('ready');
      expect(ready.body.services).to.deep.equal({ mongo: 'up', elasticsearch: 'up' });
      expect(ready.body).not.to.have.property('blocks');
      // Once the block is gone, the worker's retry indexes what was written meanwhile.
      await settle(30_000);
      expect(await listIds(`/events?search=${title}`)).to.deep.equal([written.id]);
    });
  }
});
