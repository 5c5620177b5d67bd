import { setTimeout as sleep } from 'node:timers/promises';
import { once } from 'node:events';
import { expect } from 'chai';
import { giveUpAfter } from '../../../src/search/client';

describe('search/client giveUpAfter', () => {
  it('shares one deadline between requests started together, never with later ones', async () => {
    const startedFirst = performance.now();
    const first = giveUpAfter(300).signal;
    expect(giveUpAfter(300).signal).to.equal(first);
    expect(giveUpAfter(500).signal, 'another budget').not.to.equal(first);
    await sleep(100);
    const startedLater = performance.now();
    const later = giveUpAfter(300).signal;
    expect(later).not.to.equal(first);

    // Read as the first deadline passes: however late this test runs, the later one's timer fires after.
    const laterWhenFirstGaveUp = new Promise<boolean>((resolve) =>
      first.addEventListener('abort', () => resolve(later.aborted), { once: true }),
    );
    await once(first, 'abort');
    expect(performance.now() - startedFirst).to.be.at.least(299);
    expect((first.reason as Error).name).to.equal('TimeoutError');
    expect(await laterWhenFirstGaveUp, 'a request started 100 ms later is still within its time').to.equal(false);
    await once(later, 'abort');
    expect(performance.now() - startedLater).to.be.at.least(299);
  });

  it('gives up without retries', () => {
    expect(giveUpAfter(1000).maxRetries).to.equal(0);
  });
});
