import path from 'node:path';
import { startWorld, stopWorld } from './harness';

const UNIT_TESTS = path.join(path.resolve(__dirname, '..', 'unit'), path.sep);

/**
 * Root hooks of `.mocharc.json`: the integration suites (every test file outside test/unit) share
 * one test world, the servers plus one isolated database name and index prefix, for the whole run.
 * Unit tests need no server: a run of unit test files alone starts nothing, and `npm run test:unit`
 * does not load these hooks at all (test/unit/.mocharc.json).
 */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    const suites = this.test?.parent?.suites ?? [];
    if (suites.every((suite) => suite.file?.startsWith(UNIT_TESTS))) return;
    this.timeout(300_000);
    await startWorld();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopWorld();
  },
};
