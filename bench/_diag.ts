import { openWorld } from './world';
import { seedDemo } from '../src/ops/demoData';
import { SyncWorker } from '../src/search/syncWorker';
import { waitForSearchIndexes } from '../src/search/ensureIndexes';

async function main() {
  const world = await openWorld(console.log);
  const { services } = world;
  const stats = new Map<string, { n: number; ms: number }>();
  services.mongo.on('commandSucceeded', (e) => {
    const key = `${e.commandName}:${(e.reply as any)?.cursor?.ns?.split('.')[1] ?? ''}`;
    const s = stats.get(key) ?? { n: 0, ms: 0 };
    s.n++; s.ms += e.duration; stats.set(key, s);
  });
  const dump = (label: string) => { console.log(label, JSON.stringify([...stats.entries()].map(([k, v]) => [k, v.n, Math.round(v.ms)]))); stats.clear(); };
  try {
    await waitForSearchIndexes(services);
    const seeded = await seedDemo(services, { events: 150, index: 'reindex' });
    dump('seed');
    const venue = seeded.ids.venues[0]!; const cat = seeded.ids.categories[0]!;
    const start = new Date(Date.now() + 86400000);
    let t = Date.now();
    for (let i = 0; i < 10; i++) {
      await services.stores.events.create('en', { title: `Diag ${i}`, status: 'publish', author: 0, date: new Date(), description: null, excerpt: null, image: null, start, end: new Date(start.getTime() + 3600000), timezone: 'UTC', all_day: false, cost: null, website: null, show_map: null, show_map_link: null, hide_from_listings: false, sticky: false, featured: false, ticketed: false, post_parent: 0, passwordHash: null, venues: [venue], organizers: [], categories: [cat], tags: [] } as never);
    }
    console.log('10 creates ms', Date.now() - t); dump('creates');
    const worker = new SyncWorker(services, { batchSize: 500 });
    for (let i = 0; i < 5; i++) {
      t = Date.now();
      const n = await worker.runOnce();
      console.log('batch', n, 'ms', Date.now() - t); dump('  cmds');
      if (n === 0) break;
    }
    await worker.close();
  } finally {
    await world.close(false);
  }
}
main();
