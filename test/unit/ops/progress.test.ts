import { expect } from 'chai';
import { Writable } from 'node:stream';
import { formatSummary, progressLine, startProgress } from '../../../src/indexer/progress';

function sink(): NodeJS.WritableStream & { text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return Object.assign(stream, { text: () => text });
}

describe('ops/progress', () => {
  it('a plain line has the count, share, rate, ETA and errors', () => {
    expect(progressLine('reindex events', 1200, 5000, 0, 2000)).to.equal(
      'reindex events: 1200/5000 (24%), 600 records/s, ETA 7s, 0 errors',
    );
    expect(progressLine('verify tags/en', 3, 0, 1, 1000)).to.equal('verify tags/en: 3, 3.0 records/s, 1 error');
    expect(progressLine('seed events', 100, 100_000, 0, 1000)).to.match(/ETA 16m39s/);
  });

  it('the summary has records, seconds, records/s and errors', () => {
    expect(
      formatSummary({ label: 'reindex events', records: 100_000, errors: 2, seconds: 29.44, recordsPerSecond: 3396.7 }),
    ).to.equal('reindex events: 100000 records in 29.4 s (3397 records/s), 2 errors');
  });

  it('when not on a terminal, prints plain lines periodically and the summary at the end', async () => {
    const out = sink();
    const progress = startProgress({ label: 'reindex tags', total: 10, stream: out, tty: false, intervalMs: 20 });
    progress.tick(4);
    await new Promise((resolve) => setTimeout(resolve, 60));
    progress.tick(6, 1);
    const summary = progress.finish();
    expect(summary).to.include({ label: 'reindex tags', records: 10, errors: 1 });
    const lines = out.text().trim().split('\n');
    expect(lines[0]).to.match(/^reindex tags: 4\/10 \(40%\), [\d.]+ records\/s, ETA \d+s, 0 errors$/);
    expect(lines.at(-1)).to.match(/^reindex tags: 10 records in \d+\.\d s \([\d.]+ records\/s\), 1 error$/);
  });

  it('a task stopped by an error says so, without counts that would read as complete', () => {
    const out = sink();
    const progress = startProgress({ label: 'reindex events', total: 120, stream: out, tty: false });
    progress.tick(46);
    expect(progress.finish(true)).to.include({ records: 46, errors: 0, stopped: true });
    expect(out.text().trim().split('\n').at(-1)).to.match(/^reindex events: stopped after 46 records in \d+\.\d s$/);
  });

  it('on a terminal, draws a bar with rate and ETA', () => {
    const out = sink();
    const progress = startProgress({ label: 'reindex events', total: 100, stream: out, tty: true });
    progress.tick(50);
    progress.finish();
    expect(out.text()).to.match(/reindex events \[[█░=-]+\] \d+% \| \d+\/100 \| [\d.]+\/s \| ETA /);
    expect(out.text()).to.match(/reindex events: 50 records in/);
  });

  it('silent prints nothing but still sums up', () => {
    const out = sink();
    const progress = startProgress({ label: 'x', total: 1, stream: out, silent: true });
    progress.tick(1);
    expect(progress.finish().records).to.equal(1);
    expect(out.text()).to.equal('');
  });
});
