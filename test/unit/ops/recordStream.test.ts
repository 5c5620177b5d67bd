import { expect } from 'chai';
import { idRanges, versionedRange } from '../../../src/indexer/recordStream';
import type { RecordStore } from '../../../src/storage/recordStore';
import type { BaseDoc, StoredRecord } from '../../../src/storage/storedRecord';
import type { SyncEntry, SyncQueue } from '../../../src/storage/syncQueue';

const MAX = Number.MAX_SAFE_INTEGER;

async function rangesOf(
  highest: number,
  size: number,
  signal?: AbortSignal,
  firstSize?: number,
): Promise<[number, number][]> {
  const ranges: [number, number][] = [];
  for await (const range of idRanges({ highestId: async () => highest }, size, signal, firstSize)) ranges.push(range);
  return ranges;
}

describe('ops/recordStream: ID ranges of a reindex', () => {
  it('hold `size` IDs each, cover every ID from 1 to the highest without gaps, the last open-ended', async () => {
    expect(await rangesOf(7, 3)).to.deep.equal([
      [1, 3],
      [4, 6],
      [7, MAX],
    ]);
    expect(await rangesOf(6, 3)).to.deep.equal([
      [1, 3],
      [4, MAX],
    ]);
    expect(await rangesOf(1200, 500)).to.deep.equal([
      [1, 500],
      [501, 1000],
      [1001, MAX],
    ]);
  });

  it('start with a range of `firstSize` IDs when asked, then go on by `size`', async () => {
    expect(await rangesOf(1200, 500, undefined, 125)).to.deep.equal([
      [1, 125],
      [126, 625],
      [626, 1125],
      [1126, MAX],
    ]);
    expect(await rangesOf(100, 500, undefined, 125)).to.deep.equal([[1, MAX]]);
    expect(await rangesOf(200, 500, undefined, 125)).to.deep.equal([
      [1, 125],
      [126, MAX],
    ]);
  });

  it('are one open range for an empty store', async () => {
    expect(await rangesOf(0, 500)).to.deep.equal([[1, MAX]]);
  });

  it('refuse a batch size that would never advance', () => {
    const store = { highestId: async () => 10 };
    for (const size of [0, -1, 0.5, Number.NaN]) {
      expect(() => idRanges(store, size), String(size)).to.throw(RangeError);
      expect(() => idRanges(store, 10, undefined, size), `first ${size}`).to.throw(RangeError);
    }
  });

  it('stop once aborted', async () => {
    const controller = new AbortController();
    const seen: [number, number][] = [];
    const error = await (async () => {
      for await (const range of idRanges({ highestId: async () => 5 }, 2, controller.signal)) {
        seen.push(range);
        controller.abort();
      }
    })().catch((err: unknown) => err);
    expect(seen).to.deep.equal([[1, 2]]);
    expect((error as Error).name).to.equal('AbortError');
  });
});

/**
 * A sync queue and a store over plain maps that log every call, so the order of reads shows:
 * `content` is what the store holds; `versions` the sync entries; `onRead` runs after each read.
 */
function fakes(
  content: Map<number, string>,
  versions: Map<number, number>,
  onRead: (call: string) => void = () => {},
  /** Records a writer holds, with the milliseconds its hold has left (negative: lapsed). */
  held: Map<number, number> = new Map(),
) {
  const calls: string[] = [];
  const log = (call: string) => {
    calls.push(call);
    onRead(call);
  };
  const entry = (id: number): SyncEntry =>
    ({
      _id: `event:${id}`,
      kind: 'event',
      id,
      version: versions.get(id),
      owner: null,
      leaseUntil: new Date(0),
      ...(held.has(id) ? { writingUntil: new Date(Date.now() + held.get(id)!) } : {}),
    }) as unknown as SyncEntry;
  const recordsOf = (ids: number[]) =>
    new Map(
      ids.map((id) => [id, { id, originalLang: 'en', docs: { en: { id, title: content.get(id) } } }] as const),
    ) as unknown as Map<number, StoredRecord<BaseDoc>>;
  const inRange = (ids: Iterable<number>, first: number, last: number) =>
    [...ids].filter((id) => id >= first && id <= last);
  const sync = {
    async entriesInRange(_kind: string, first: number, last: number) {
      const found = new Map(inRange(versions.keys(), first, last).map((id) => [id, entry(id)]));
      log(`entriesInRange ${first}-${last}`);
      return found;
    },
    async markDirty(_kind: string, ids: number[]) {
      for (const id of ids) versions.set(id, (versions.get(id) ?? 0) + 1);
      log(`markDirty ${ids.join(',')}`);
    },
    async entriesOf(_kind: string, ids: number[]) {
      const found = new Map(ids.filter((id) => versions.has(id)).map((id) => [id, entry(id)]));
      log(`entriesOf ${ids.join(',')}`);
      return found;
    },
  } as unknown as SyncQueue;
  const store = {
    kind: 'event',
    async getRange(first: number, last: number) {
      const found = recordsOf(inRange(content.keys(), first, last));
      log(`getRange ${first}-${last}`);
      return found;
    },
    async getMany(ids: number[]) {
      const found = recordsOf(ids.filter((id) => content.has(id)));
      log(`getMany ${ids.join(',')}`);
      return found;
    },
  } as unknown as RecordStore<BaseDoc>;
  return { sync, store, calls };
}

const titles = (records: Map<number, StoredRecord<BaseDoc>>) =>
  [...records.values()].map((r) => (r.docs.en as unknown as { title: string }).title);

describe('ops/recordStream: versionedRange (versions before content)', () => {
  it('reads the versions of a range, then its content, and pairs each record with its version', async () => {
    const { sync, store, calls } = fakes(
      new Map([
        [3, 'c'],
        [1, 'a'],
        [9, 'out of range'],
      ]),
      new Map([
        [1, 4],
        [2, 7], // an entry whose record is gone: nothing to load
        [3, 1],
        [9, 2],
      ]),
    );
    const { entries, records } = await versionedRange(sync, store, 1, 5);
    expect(calls).to.deep.equal(['entriesInRange 1-5', 'getRange 1-5']);
    expect(entries).to.deep.equal([
      { key: 'event:1', kind: 'event', id: 1, version: 4 },
      { key: 'event:3', kind: 'event', id: 3, version: 1 },
    ]);
    expect(titles(records).sort()).to.deep.equal(['a', 'c']);
  });

  it('gives a record without an entry one, then reads its content again, after that version', async () => {
    const content = new Map([
      [1, 'a'],
      [2, 'b, as first read'],
    ]);
    // A write lands between the range's read and the new entry: the re-read must see it.
    const { sync, store, calls } = fakes(content, new Map([[1, 4]]), (call) => {
      if (call === 'getRange 1-5') content.set(2, 'b, rewritten');
    });
    const { entries, records } = await versionedRange(sync, store, 1, 5);
    expect(calls).to.deep.equal(['entriesInRange 1-5', 'getRange 1-5', 'markDirty 2', 'entriesOf 2', 'getMany 2']);
    expect(entries.map((e) => [e.id, e.version])).to.deep.equal([
      [1, 4],
      [2, 1],
    ]);
    expect(titles(records)).to.include('b, rewritten');
  });

  it('drops a record without an entry that is deleted before it is read again', async () => {
    const content = new Map([[2, 'b']]);
    const { sync, store } = fakes(content, new Map(), (call) => {
      if (call === 'entriesOf 2') content.delete(2);
    });
    const { entries, records } = await versionedRange(sync, store, 1, 5);
    expect(entries).to.deep.equal([]);
    expect(records.size).to.equal(0);
  });

  it("leaves out a record a writer is still changing, not one whose writer's hold lapsed", async () => {
    const { sync, store } = fakes(
      new Map([
        [1, 'half written'],
        [2, 'crashed writer'],
        [3, 'c'],
      ]),
      new Map([
        [1, 1],
        [2, 1],
        [3, 1],
      ]),
      () => {},
      new Map([
        [1, 5_000],
        [2, -5_000],
      ]),
    );
    const { entries, records } = await versionedRange(sync, store, 1, 5);
    expect(entries.map((e) => e.id)).to.deep.equal([2, 3]);
    expect([...records.keys()].sort()).to.deep.equal([2, 3]);
  });
});
