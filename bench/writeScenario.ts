import { measureWrites, type MeasureContext, type WriteMeasurement } from './measure';
import { drawSamples, writeBodies } from './scenarios';
import { seedAndIndex } from './seed';
import { startServers, type ServerSettings } from './servers';
import { openWorld, type BenchWorld } from './world';

/** Events (with their venues, organizers and terms) in the world the writes go to. */
export const WRITE_WORLD_EVENTS = 200;

export interface WriteSettings extends ServerSettings {
  seed: number;
  context: Omit<MeasureContext, 'world' | 'api' | 'baseline' | 'apiRss'>;
}

/**
 * Scenario 4 on a fresh, small world of its own (same servers, own database and indexes, its own
 * API and baseline). jongodb's cost per insert grows with the square of the collection's size
 * (measured: 12 ms at 600 documents, 2.2 s at 10,000, 27 s at 30,000), so at the seeded size the
 * engine, not the service, would set every figure; MongoDB's B-tree inserts do not care.
 */
export async function measureWritesOnFreshWorld(main: BenchWorld, settings: WriteSettings): Promise<WriteMeasurement> {
  const world = await openWorld(settings.log, { urls: main.urls });
  try {
    await seedAndIndex(world, WRITE_WORLD_EVENTS, settings.seed, settings.log);
    const bodies = writeBodies(await drawSamples(world.services, settings.seed), settings.seed);
    const servers = await startServers(world, settings);
    try {
      return await measureWrites({ ...settings.context, world, ...servers }, bodies);
    } finally {
      await servers.stop();
    }
  } finally {
    await world.close(false).catch((err: Error) => settings.log(`cleanup of the write world: ${err.message}`));
  }
}
