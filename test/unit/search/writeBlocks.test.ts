import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { loadConfig } from '../../../config';
import { searchWriteBlocks } from '../../../src/search/writeBlocks';

/** A client whose cluster state is `blocks` (as Elasticsearch 8.12 answers `_cluster/state/blocks`), keeping the request. */
function clientWith(blocks: object) {
  const asked: Record<string, unknown>[] = [];
  const client = {
    cluster: {
      state: async (params: Record<string, unknown>) => {
        asked.push(params);
        return { cluster_name: 'calendar', cluster_uuid: 'x', blocks };
      },
    },
  } as unknown as Client;
  return { client, asked };
}

describe('searchWriteBlocks', () => {
  const config = loadConfig({ NODE_ENV: 'test', INDEX_PREFIX: 'cal' });

  it('asks for the blocks of the indexes behind the service aliases only', async () => {
    const { client, asked } = clientWith({});
    expect(await searchWriteBlocks(client, config, 1_000)).to.deep.equal([]);
    expect(asked[0]).to.include({ metric: 'blocks', ignore_unavailable: true, allow_no_indices: true });
    expect(asked[0]!.index).to.have.length(15).and.include('cal-events-en').and.include('cal-tags-de');
  });

  it('names the blocks of the cluster and of the indexes that refuse writes, not those that refuse reads only', async () => {
    const { client } = clientWith({
      global: {
        6: { description: 'cluster read-only (api)', retryable: false, levels: ['write', 'metadata_write'] },
      },
      indices: {
        'cal-events-en-v4': {
          8: { description: 'index write (api)', retryable: false, levels: ['write'] },
        },
        'cal-venues-fr-v4': {
          7: { description: 'index read (api)', retryable: false, levels: ['read'] },
        },
      },
    });
    expect(await searchWriteBlocks(client, config, 1_000)).to.deep.equal([
      'cluster: cluster read-only (api)',
      'cal-events-en-v4: index write (api)',
    ]);
  });
});
