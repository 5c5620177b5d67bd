import { startWorld, stopWorld } from './harness';

/** Root hooks: one set of real servers and one isolated world for the whole run. */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(300_000);
    await startWorld();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopWorld();
  },
};
