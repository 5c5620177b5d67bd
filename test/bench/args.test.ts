import { expect } from 'chai';
import { BenchUsageError, parseBenchArgs } from '../../bench/args';

describe('bench: command line', () => {
  const refused = (argv: string[]): BenchUsageError => {
    try {
      parseBenchArgs(argv);
    } catch (err) {
      expect(err).to.be.instanceOf(BenchUsageError);
      return err as BenchUsageError;
    }
    throw new Error(`${argv.join(' ')} was accepted`);
  };

  it('reads the options it is given and defaults the rest', () => {
    const options = parseBenchArgs(['--events', '2000', '--only', 'seed, reindex', '--api', 'source', '--keep']);
    expect(options).to.include({ events: 2000, duration: 10, connections: 32, keep: true, api: 'source' });
    expect(options.only).to.deep.equal(['seed', 'reindex']);
    expect(parseBenchArgs([])).to.include({ events: 10_000, api: 'build', only: null, reuse: null });
  });

  it('refuses a stray argument with the usage, not a stack', () => {
    const err = refused(['--keep', 's6']);
    expect(err.message).to.match(/^Unexpected argument 's6'/);
    expect(err.message).to.include('usage: npm run bench');
  });

  it('names the scenarios --only takes when given an unknown one', () => {
    expect(refused(['--only', 'seed,raeds']).message).to.match(/^--only takes seed, read, .*; not "raeds"/);
  });

  it('refuses an --api mode it does not know and a count that is not a positive integer', () => {
    expect(refused(['--api', 'docker']).message).to.match(/^--api takes build or source, not "docker"/);
    expect(refused(['--events', '1e3x']).message).to.match(/^--events must be a positive integer, not "1e3x"/);
  });
});
