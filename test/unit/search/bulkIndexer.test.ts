import type { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { BulkIndexer, type BulkOperation } from '../../../src/indexer/bulkIndexer';

type Line = Record<string, { _id: string }>;
type Responder = (ids: string[], call: number) => number[] | Error;

/**
 * A stand-in for the client's bulk API: answers each operation with the status `respond` gives.
 * Operations arrive as one NDJSON body (action line, then the document for index operations).
 */
function fakeClient(respond: Responder = (ids) => ids.map(() => 201), delayMs = 5) {
  const calls: string[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const client = {
    async bulk({ operations }: { operations: Buffer }) {
      const lines = operations.toString('utf8').split('\n');
      expect(lines.pop(), 'the body ends with a newline').to.equal('');
      const ids: string[] = [];
      for (let i = 0; i < lines.length; i++) {
        const action = JSON.parse(lines[i]!) as Line;
        ids.push(Object.values(action)[0]!._id);
        if ('index' in action) JSON.parse(lines[++i]!);
      }
      calls.push(ids);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      inFlight--;
      const statuses = respond(ids, calls.length);
      if (statuses instanceof Error) throw statuses;
      return {
        items: statuses.map((status) => ({
          index: { status, ...(status >= 300 ? { error: { type: 'x', reason: `status ${status}` } } : {}) },
        })),
      };
    },
  };
  return { client: client as unknown as Client, calls, maxInFlight: () => maxInFlight };
}

const op = (id: number, size = 10): BulkOperation => ({
  action: 'index',
  index: 'i',
  id: String(id),
  version: 1,
  document: { text: 'x'.repeat(size) },
});
const options = { flushBytes: 1 << 20, flushMs: 10_000, concurrency: 2, retryBaseMs: 1 };

describe('search/bulkIndexer', () => {
  it('sends a request when the buffer reaches flushBytes, with at most `concurrency` in flight', async () => {
    const fake = fakeClient(undefined, 20);
    const indexer = new BulkIndexer(fake.client, { ...options, flushBytes: 300 });
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => indexer.push(op(i, 100))));
    expect(outcomes.every((o) => o.ok && o.status === 201)).to.equal(true);
    expect(fake.calls.length).to.be.above(5);
    expect(fake.calls.flat()).to.have.length(20);
    expect(fake.maxInFlight()).to.equal(2);
  });

  it('counts flushBytes in UTF-8 bytes, not characters', async () => {
    const fake = fakeClient();
    const indexer = new BulkIndexer(fake.client, { ...options, flushBytes: 1_000 });
    const accented = (id: number): BulkOperation => ({
      ...op(id),
      action: 'index',
      document: { text: 'é'.repeat(300) },
    });
    // 300 characters but 600 bytes each: the second one fills the buffer, so it goes at once.
    const outcomes = await Promise.race([
      Promise.all([indexer.push(accented(1)), indexer.push(accented(2))]),
      new Promise((resolve) => setTimeout(() => resolve('waited for flushMs'), 1_000)),
    ]);
    expect(outcomes).to.deep.equal([
      { ok: true, status: 201 },
      { ok: true, status: 201 },
    ]);
    expect(fake.calls).to.deep.equal([['1', '2']]);
  });

  it('sends what is buffered after flushMs, or at once on flush()', async () => {
    const fake = fakeClient();
    const timed = new BulkIndexer(fake.client, { ...options, flushMs: 20 });
    const started = Date.now();
    expect(await timed.push(op(1))).to.deep.equal({ ok: true, status: 201 });
    expect(Date.now() - started).to.be.at.least(15);
    const manual = new BulkIndexer(fake.client, options);
    const pending = manual.push(op(2));
    await manual.flush();
    expect(await pending).to.deep.equal({ ok: true, status: 201 });
  });

  it('ready() waits until no request waits for a slot', async () => {
    const fake = fakeClient(undefined, 20);
    const indexer = new BulkIndexer(fake.client, { ...options, flushBytes: 100, concurrency: 1 });
    await indexer.ready();
    const outcomes = Promise.all([1, 2, 3].map((id) => indexer.push(op(id, 100))));
    expect(fake.calls).to.have.length(1);
    await indexer.ready();
    // The third request has just started: nothing is left waiting, one is in flight.
    expect(fake.calls).to.deep.equal([['1'], ['2'], ['3']]);
    expect((await outcomes).every((o) => o.ok)).to.equal(true);
  });

  it('sendIfIdle() sends a part-filled buffer when a slot is free, not while every slot is busy', async () => {
    const fake = fakeClient(undefined, 20);
    const indexer = new BulkIndexer(fake.client, { ...options, concurrency: 1 });
    const first = indexer.push(op(1));
    indexer.sendIfIdle();
    expect(fake.calls).to.deep.equal([['1']]);
    const more = [indexer.push(op(2))];
    indexer.sendIfIdle();
    more.push(indexer.push(op(3)));
    indexer.sendIfIdle();
    expect(fake.calls, 'the only slot is busy').to.have.length(1);
    await first;
    await new Promise((resolve) => setImmediate(resolve)); // the request's slot is freed after its outcomes
    indexer.sendIfIdle();
    // Ops 2 and 3 waited in the buffer and go out together.
    expect(fake.calls).to.deep.equal([['1'], ['2', '3']]);
    expect(await Promise.all(more)).to.deep.equal([
      { ok: true, status: 201 },
      { ok: true, status: 201 },
    ]);
  });

  it('treats version conflicts and deletes of missing documents as done, other 4xx as failed without retry', async () => {
    const fake = fakeClient((ids) => ids.map((id) => ({ a: 409, b: 404, c: 400 })[id] ?? 201));
    const indexer = new BulkIndexer(fake.client, options);
    const results = Promise.all([
      indexer.push({ ...op(0), id: 'a' }),
      indexer.push({ action: 'delete', index: 'i', id: 'b', version: 2 }),
      indexer.push({ ...op(0), id: 'c' }),
    ]);
    await indexer.flush();
    const [conflict, missing, invalid] = await results;
    expect(conflict).to.deep.equal({ ok: true, status: 409 });
    expect(missing).to.deep.equal({ ok: true, status: 404 });
    expect(invalid).to.include({ ok: false, status: 400 });
    expect(fake.calls).to.have.length(1);
  });

  it('retries only the operations answered 429/5xx, with backoff', async () => {
    const fake = fakeClient((ids, call) => ids.map((id) => (id === 'busy' && call < 3 ? 429 : 201)));
    const indexer = new BulkIndexer(fake.client, options);
    const results = Promise.all([indexer.push({ ...op(0), id: 'busy' }), indexer.push({ ...op(0), id: 'fine' })]);
    await indexer.flush();
    expect((await results).map((r) => r.ok)).to.deep.equal([true, true]);
    expect(fake.calls).to.deep.equal([['busy', 'fine'], ['busy'], ['busy']]);
  });

  it('gives up on items still refused after its retries, saying why (a full disk is a 429 too)', async () => {
    const indexer = new BulkIndexer(fakeClient((ids) => ids.map(() => 429)).client, { ...options, maxRetries: 1 });
    const result = indexer.push(op(1));
    await indexer.flush();
    expect(await result).to.deep.equal({ ok: false, status: 0, error: '429 x: status 429', unreachable: false });
  });

  it('retries connection failures, then gives up with a failed outcome', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED'), { name: 'ConnectionError' });
    const fake = fakeClient(() => down);
    const indexer = new BulkIndexer(fake.client, { ...options, maxRetries: 2 });
    const result = indexer.push(op(1));
    await indexer.flush();
    expect(await result).to.deep.equal({ ok: false, status: 0, error: 'connect ECONNREFUSED', unreachable: true });
    expect(fake.calls).to.have.length(3);
  });

  it('calls a server that keeps answering 429 busy, not unreachable', async () => {
    const busy = Object.assign(new Error('circuit_breaking_exception'), {
      name: 'ResponseError',
      meta: { statusCode: 429 },
    });
    const indexer = new BulkIndexer(fakeClient(() => busy).client, { ...options, maxRetries: 1 });
    const result = indexer.push(op(1));
    await indexer.flush();
    expect(await result).to.include({ ok: false, unreachable: false });
  });

  it('fails every operation at once when its signal is aborted, retries included', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED'), { name: 'ConnectionError' });
    const fake = fakeClient(() => down);
    const stop = new AbortController();
    const indexer = new BulkIndexer(fake.client, { ...options, retryBaseMs: 60_000, signal: stop.signal });
    const result = indexer.push(op(1));
    indexer.sendNow();
    setTimeout(() => stop.abort(), 20);
    expect(await result).to.include({ ok: false });
    expect(fake.calls.length).to.be.at.most(2);
  });
});
