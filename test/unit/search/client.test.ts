import { expect } from 'chai';
import { giveUpAfter } from '../../../src/search/client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('search/client giveUpAfter', () => {
  it('shares one deadline between requests started together, never with later ones', async () => {
    const first = giveUpAfter(300).signal;
    expect(giveUpAfter(300).signal).to.equal(first);
    expect(giveUpAfter(500).signal, 'another budget').not.to.equal(first);
    await sleep(100);
    const later = giveUpAfter(300).signal;
    expect(later).not.to.equal(first);
    await sleep(250);
    // The first requests' deadline (300-325 ms) has passed; the later one's (from 400 ms) has not.
    expect(first.aborted).to.equal(true);
    expect((first.reason as Error).name).to.equal('TimeoutError');
    expect(later.aborted).to.equal(false);
    await sleep(150);
    expect(later.aborted).to.equal(true);
  });

  it('gives up without retries', () => {
    expect(giveUpAfter(1000).maxRetries).to.equal(0);
  });
});
