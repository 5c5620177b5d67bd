import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { RULE_DEADLINE_MS } from '../../../src/domain/recurrence/guardedExpansion';
import { OWN_CPU_FILE_SOURCE, threadClock } from '../../../src/lib/threadCpu';

const runThread = (body: string) =>
  new Promise<{ file: string | null; worker: Worker }>((resolve) => {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.postMessage(${OWN_CPU_FILE_SOURCE});
       ${body}`,
      { eval: true },
    );
    worker.once('message', (file: string | null) => resolve({ file, worker }));
  });

describe('domain/recurrence: the expansion deadline counts CPU time', function () {
  this.timeout(60_000);

  it("a thread's clock counts the time it runs, not the time it waits", async () => {
    const sleeping = await runThread('Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);');
    const spinning = await runThread('const until = Date.now() + 400; while (Date.now() < until) {}');
    expect(sleeping.file, 'Linux names the file of a thread').to.match(/^\/proc\/\d+\/task\/\d+\/schedstat$/);
    const [slept, spun] = [threadClock(sleeping.file), threadClock(spinning.file)];
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(slept()).to.be.below(50);
    expect(spun()).to.be.within(150, 400);
    await Promise.all([sleeping.worker.terminate(), spinning.worker.terminate()]);
  });

  it('a legitimate rule is expanded while its thread waits far longer than the deadline for a core', function () {
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'test/unit/domain/fixtures/starvedRuleCheck.ts', 'FREQ=HOURLY;BYHOUR=9;COUNT=1400'],
      { encoding: 'utf8' },
    );
    const { starts, wallMs } = JSON.parse(output) as { starts: number | null; wallMs: number };
    expect(wallMs, 'the thread was starved').to.be.above(RULE_DEADLINE_MS);
    expect(starts).to.equal(1400);
  });
});
