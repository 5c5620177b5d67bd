import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { Collection } from 'mongodb';
import { watchDirtyEntries } from '../../../src/storage/dirtyWatch';
import type { SyncEntry } from '../../../src/storage/syncQueue';

type Doc = Record<string, unknown>;

/** The value at a dotted path of `doc` (undefined when absent). */
function valueAt(doc: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Doc | undefined)?.[key], doc);
}

/**
 * What the server does with a `$match` stage, for the operators dirtyWatch may use: `$or`,
 * `$and`, `$exists` and plain equality. Anything else throws, so that a new operator in the
 * pipeline fails here rather than being ignored.
 */
function matches(doc: unknown, filter: Doc): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$or') return (condition as Doc[]).some((f) => matches(doc, f));
    if (key === '$and') return (condition as Doc[]).every((f) => matches(doc, f));
    if (key.startsWith('$')) throw new Error(`the fake server does not know ${key}`);
    const value = valueAt(doc, key);
    if (condition !== null && typeof condition === 'object' && !(condition instanceof Date)) {
      return Object.entries(condition as Doc).every(([op, operand]) => {
        if (op === '$exists') return (value !== undefined) === Boolean(operand);
        throw new Error(`the fake server does not know ${op}`);
      });
    }
    return JSON.stringify(value) === JSON.stringify(condition);
  });
}

/** A change stream that delivers, as a server would, the change events its pipeline matches. */
class FakeChangeStream extends EventEmitter {
  closes = 0;
  closed = false;
  constructor(
    readonly pipeline: Doc[],
    private readonly closeFails = false,
  ) {
    super();
    for (const stage of pipeline) {
      const [name] = Object.keys(stage);
      if (name !== '$match') throw new Error(`the fake server does not run ${name}`);
    }
  }

  /** The server has a change for watchers: delivered when every stage matches it. */
  happen(change: Doc): void {
    if (this.closed) return;
    if (this.pipeline.every((stage) => matches(change, stage.$match as Doc))) this.emit('change', change);
  }

  async close(): Promise<void> {
    this.closes++;
    this.closed = true;
    if (this.closeFails) throw new Error('already closed');
  }
}

function fakeEntries(options: { watchThrows?: Error; closeFails?: boolean } = {}) {
  const streams: FakeChangeStream[] = [];
  const collection = {
    watch: (pipeline: Doc[]) => {
      if (options.watchThrows) throw options.watchThrows;
      const stream = new FakeChangeStream(pipeline, options.closeFails);
      streams.push(stream);
      return stream;
    },
  } as unknown as Collection<SyncEntry>;
  return { collection, streams };
}

const key = { _id: 'event:1' };
/** Change events as the server describes what SyncQueue's writes do to an entry. */
const CHANGES = {
  // beginNew / the first begin or markDirty of a record: the entry is inserted.
  insert: { operationType: 'insert', documentKey: key, fullDocument: { _id: 'event:1', version: 1, pending: true } },
  // begin, commit, markDirty: `$inc: { version: 1 }` with the pending flags.
  commit: {
    operationType: 'update',
    documentKey: key,
    updateDescription: {
      updatedFields: { version: 3, dirtyAt: new Date(), writingUntil: new Date(0) },
      removedFields: [],
    },
  },
  markDirtyOnly: {
    operationType: 'update',
    documentKey: key,
    updateDescription: { updatedFields: { version: 4 }, removedFields: [] },
  },
  // claim: a worker's lease.
  claim: {
    operationType: 'update',
    documentKey: key,
    updateDescription: { updatedFields: { leaseUntil: new Date(), owner: 'worker-1' }, removedFields: [] },
  },
  // complete: indexed at the claimed version.
  complete: {
    operationType: 'update',
    documentKey: key,
    updateDescription: {
      updatedFields: { pending: false, indexedVersion: 3, leaseUntil: new Date(0), owner: null },
      removedFields: [],
    },
  },
  // release: given back with a backoff.
  release: {
    operationType: 'update',
    documentKey: key,
    updateDescription: {
      updatedFields: { leaseUntil: new Date(0), owner: null, retryAfter: new Date() },
      removedFields: [],
    },
  },
  remove: { operationType: 'delete', documentKey: key },
  // A field whose name merely contains `version` is not the version.
  indexedVersionOnly: {
    operationType: 'update',
    documentKey: key,
    updateDescription: { updatedFields: { indexedVersion: 5 }, removedFields: [] },
  },
};

/** Watches a fake collection, counting the changes and the failures reported. */
function watching(options?: Parameters<typeof fakeEntries>[0]) {
  const { collection, streams } = fakeEntries(options);
  const seen = { changes: 0, unavailable: [] as Error[] };
  const stop = watchDirtyEntries(
    collection,
    () => seen.changes++,
    (err) => seen.unavailable.push(err),
  );
  return { streams, stop, seen };
}

describe('storage/dirtyWatch watchDirtyEntries', () => {
  it('calls onChange for inserts and version bumps (begin, commit, markDirty) only', () => {
    const { streams, seen } = watching();
    expect(streams).to.have.length(1);
    const stream = streams[0]!;
    const delivered = (change: Doc) => {
      const before = seen.changes;
      stream.happen(change);
      return seen.changes - before;
    };
    expect(delivered(CHANGES.insert), 'insert').to.equal(1);
    expect(delivered(CHANGES.commit), 'commit').to.equal(1);
    expect(delivered(CHANGES.markDirtyOnly), 'markDirty').to.equal(1);
    for (const name of ['claim', 'complete', 'release', 'remove', 'indexedVersionOnly'] as const)
      expect(delivered(CHANGES[name]), name).to.equal(0);
    expect(seen.unavailable).to.deep.equal([]);
    expect(stream.closes).to.equal(0);
  });

  it('reports a failing stream once through onUnavailable and closes it (the worker keeps polling)', async () => {
    const { streams, stop, seen } = watching();
    const stream = streams[0]!;
    stream.happen(CHANGES.commit);
    expect(seen.changes).to.equal(1);

    const refused = new Error('unsupported aggregation stage: $changeStream');
    stream.emit('error', refused);
    // A second error (a getMore failing as the stream closes) is heard, not thrown, and reported once.
    stream.emit('error', new Error('cursor killed'));
    expect(seen.unavailable).to.deep.equal([refused]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.closes, 'the failed stream is closed').to.equal(1);
    // Stopping later does not close it again.
    await stop();
    expect(stream.closes).to.equal(1);
    expect(seen.unavailable).to.have.length(1);
  });

  it('reports a collection that cannot be watched at all, and its stop does nothing', async () => {
    const refused = new Error('change streams are not supported');
    const { streams, stop, seen } = watching({ watchThrows: refused });
    expect(seen.unavailable).to.deep.equal([refused]);
    expect(streams).to.deep.equal([]);
    await stop();
    expect(seen.changes).to.equal(0);
  });

  it('stops by closing the stream once, a failing close included', async () => {
    const { streams, stop, seen } = watching({ closeFails: true });
    const stream = streams[0]!;
    await stop();
    expect(stream.closes).to.equal(1);
    await stop();
    expect(stream.closes, 'a second stop').to.equal(1);
    expect(seen.unavailable).to.deep.equal([]);
  });
});
