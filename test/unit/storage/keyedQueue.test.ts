import { expect } from 'chai';
import { KeyedQueue } from '../../../src/lib/keyedQueue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('storage/keyedQueue', () => {
  it('runs the tasks of one key one at a time, in order, and other keys alongside', async () => {
    const queue = new KeyedQueue<number>();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([queue.run(1, task('a')), queue.run(1, task('b')), queue.run(2, task('c'))]);
    expect(results).to.deep.equal(['a', 'b', 'c']);
    expect(log.indexOf('b start')).to.be.greaterThan(log.indexOf('a end'));
    expect(log.indexOf('c start')).to.be.lessThan(log.indexOf('a end'));
    await tick();
    expect(queue.size).to.equal(0);
  });

  it('runs the next task of a key after one fails, and gives the failure to its caller', async () => {
    const queue = new KeyedQueue<string>();
    const failed = queue.run('k', async () => {
      throw new Error('boom');
    });
    const next = queue.run('k', async () => 'ran');
    await failed.then(
      () => expect.fail('the failing task resolved'),
      (err: Error) => expect(err.message).to.equal('boom'),
    );
    expect(await next).to.equal('ran');
  });
});
