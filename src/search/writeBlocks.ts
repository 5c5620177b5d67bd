import type { Client } from '@elastic/elasticsearch';
import { LANGUAGES, type Config } from '../../config';
import { RECORD_KINDS } from '../domain/kinds';
import { giveUpAfter } from './client';
import { aliasName } from './indexNames';

interface Block {
  description?: string;
  levels?: string[];
}

interface BlocksState {
  global?: Record<string, Block>;
  indices?: Record<string, Record<string, Block>>;
}

const refusingWrites = (blocks: Record<string, Block> = {}) =>
  Object.values(blocks)
    .filter((block) => block.levels?.includes('write'))
    .map((block) => block.description ?? 'blocked');

/**
 * What refuses writes to this service's indexes: a block at the `write` level on the cluster
 * (`cluster.blocks.read_only`) or on an index behind its aliases (`index.blocks.write`,
 * `index.blocks.read_only`, or `read_only_allow_delete` set at the disk flood-stage watermark).
 * Each as `index: description` (`cluster: description`); none when writes go through.
 */
export async function searchWriteBlocks(client: Client, config: Config, timeoutMs: number): Promise<string[]> {
  const aliases = RECORD_KINDS.flatMap((kind) => LANGUAGES.map((lang) => aliasName(config, kind, lang)));
  const state = await client.cluster.state(
    { metric: 'blocks', index: aliases, ignore_unavailable: true, allow_no_indices: true },
    giveUpAfter(timeoutMs),
  );
  const blocks = (state as { blocks?: BlocksState }).blocks ?? {};
  return [
    ...refusingWrites(blocks.global).map((description) => `cluster: ${description}`),
    ...Object.entries(blocks.indices ?? {}).flatMap(([index, set]) =>
      refusingWrites(set).map((description) => `${index}: ${description}`),
    ),
  ];
}
