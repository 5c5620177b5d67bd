import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAlive, launch, ProcessGroup } from '../../../src/dev/managedProcess';

describe('embedded/managedProcess', () => {
  // A group of its own: stopping the default one would stop the servers this test run started.
  it('stops every process of its group it has not stopped yet (an exit during startup), and no other', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'launch-')), 'out.log');
    const group = new ProcessGroup();
    const stoppedAlready = launch('sleep', ['60'], log, { group });
    const running = [launch('sleep', ['60'], log, { group }), launch('sleep', ['60'], log, { group })];
    const outsider = launch('sleep', ['60'], log, { group: new ProcessGroup() });
    await stoppedAlready.stop();
    expect(running.map((handle) => isAlive(handle.pid))).to.deep.equal([true, true]);
    await group.stopAll();
    expect([stoppedAlready, ...running, outsider].map((handle) => isAlive(handle.pid))).to.deep.equal([
      false,
      false,
      false,
      true,
    ]);
    await outsider.stop();
    expect(isAlive(outsider.pid)).to.equal(false);
  });
});
