import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAlive, launch, stopLaunched } from '../../../src/embedded/managedProcess';

describe('embedded/managedProcess', () => {
  it('stops every server it launched and has not stopped (an exit during startup)', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'launch-')), 'out.log');
    const stoppedAlready = launch('sleep', ['60'], log);
    const running = [launch('sleep', ['60'], log), launch('sleep', ['60'], log)];
    await stoppedAlready.stop();
    expect(running.map((handle) => isAlive(handle.pid))).to.deep.equal([true, true]);
    await stopLaunched();
    expect([stoppedAlready, ...running].map((handle) => isAlive(handle.pid))).to.deep.equal([false, false, false]);
  });
});
