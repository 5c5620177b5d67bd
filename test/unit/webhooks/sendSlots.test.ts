import { expect } from 'chai';
import { ROUNDS_HELD, SendSlots, targetKey } from '../../../src/indexer/webhooks/sendSlots';

const item = (target: string, n: number) => ({ target, n });

describe('webhooks: send slots per receiver', () => {
  it('starts at most `total` at once and `perTarget` per receiver, oldest first, others waiting their turn', () => {
    const slots = new SendSlots<ReturnType<typeof item>>(3, 2);
    slots.add([item('a', 1), item('a', 2), item('a', 3), item('b', 4), item('b', 5)]);
    const first = slots.startable();
    expect(first.map((i) => i.n)).to.deep.equal([1, 2, 4]);
    expect(slots.inFlight).to.equal(3);
    expect(slots.startable()).to.deep.equal([]);
    slots.done(first[0]!);
    // a has room again, and its oldest waiting message goes before b's.
    expect(slots.startable().map((i) => i.n)).to.deep.equal([3]);
    slots.done(first[2]!);
    expect(slots.startable().map((i) => i.n)).to.deep.equal([5]);
    expect(slots.drain()).to.deep.equal([]);
  });

  it('claims in large batches: only once half a round or less waits, each receiver up to ROUNDS_HELD rounds of its share', () => {
    const slots = new SendSlots<ReturnType<typeof item>>(4, 2);
    expect(slots.wantsMore).to.equal(true);
    expect(slots.claimable).to.equal(ROUNDS_HELD * 4);
    const admits = slots.admitter();
    const admitted = Array.from({ length: 20 }, () => admits('a')).filter(Boolean).length;
    expect(admitted).to.equal(ROUNDS_HELD * 2);
    expect(admits('b')).to.equal(true);
    slots.add(Array.from({ length: 6 }, (_, n) => item('a', n)));
    expect(slots.wantsMore, 'six waiting of a round of four').to.equal(false);
    slots.startable();
    expect(slots.wantsMore, 'four waiting, two running').to.equal(false);
    expect(slots.admitter()('a'), 'a holds six of its sixteen').to.equal(true);
    expect(slots.drain().map((i) => i.n)).to.deep.equal([2, 3, 4, 5]);
    expect(slots.wantsMore).to.equal(true);
  });

  it('a receiver holding all it may is passed over, and its backlog does not stop claims for the others', () => {
    const slots = new SendSlots<ReturnType<typeof item>>(4, 2);
    slots.add(Array.from({ length: ROUNDS_HELD * 2 }, (_, n) => item('a', n)));
    expect(slots.fullTargets()).to.deep.equal(new Set(['a']));
    expect(slots.admitter()('a')).to.equal(false);
    // Two of a's messages can go at once: the round's two other slots wait for other receivers'.
    expect(slots.wantsMore, 'sixteen waiting').to.equal(false);
    expect(slots.leavesSlotsIdle).to.equal(true);
    slots.startable();
    expect(slots.inFlight).to.equal(2);
    expect(slots.leavesSlotsIdle).to.equal(true);
    slots.add([item('b', 100), item('c', 101)]);
    expect(slots.leavesSlotsIdle, 'a round: two of a, one of b, one of c').to.equal(false);
    expect(slots.startable().map((i) => i.n)).to.deep.equal([100, 101]);
    expect(slots.fullTargets()).to.deep.equal(new Set(['a']));
  });

  it('a receiver is its scheme, host and port', () => {
    expect(targetKey('https://partner.example/hooks/a?x=1')).to.equal(targetKey('https://partner.example/other'));
    expect(targetKey('https://partner.example:8443/a')).to.not.equal(targetKey('https://partner.example/a'));
    expect(targetKey('http://partner.example/a')).to.not.equal(targetKey('https://partner.example/a'));
    expect(targetKey('not a url')).to.equal('not a url');
  });
});
