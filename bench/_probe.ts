import { loadConfig } from '../config';
import { createLogger } from '../src/log';
import { openServices } from '../src/services';
import { createApp } from '../src/app';
import { allRoutes } from '../src/routes';
async function main() {
  process.env.PROBE_MONGO = '1';
  const run = process.argv[2];
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    MONGO_URL: 'mongodb://127.0.0.1:27050/?replicaSet=rs0',
    ELASTICSEARCH_URL: 'http://127.0.0.1:9250',
    MONGO_DATABASE: `calendar_${run}`,
    INDEX_PREFIX: `bench-${run}`,
    RATE_LIMIT: 'false',
    BOOTSTRAP_ADMIN_KEY: 'false',
    SYNC_IN_PROCESS: 'false',
  });
  const services = await openServices(config, createLogger('warn'));
  const { key } = await services.apiKeys.create('probe', 'administrator');
  const client = (services.db as any).client;
  const started = new Map<number, [string, number]>();
  const stats = new Map<string, { n: number; ms: number }>();
  client.on('commandStarted', (e: any) =>
    started.set(e.requestId, [`${e.commandName} ${e.command[e.commandName]}`, performance.now()]),
  );
  client.on('commandSucceeded', (e: any) => {
    const s = started.get(e.requestId);
    if (!s) return;
    const st = stats.get(s[0]) ?? { n: 0, ms: 0 };
    st.n++;
    st.ms += performance.now() - s[1];
    stats.set(s[0], st);
  });
  client.on('commandFailed', (e: any) => {
    const s = started.get(e.requestId);
    if (s) console.log('FAILED', s[0], e.failure?.message);
  });
  const app = createApp({
    config,
    log: createLogger('warn'),
    apiKeys: services.apiKeys,
    routes: allRoutes(services),
    health: { checks: {} } as any,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as any).port;
  let next = 0;
  const N = 160;
  const t0 = performance.now();
  const lat: number[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < N) {
        const i = next++;
        const t = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/calendar/events/v1/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            title: `Probe ${i} ${Date.now()}`,
            description: '<p>x</p>',
            start_date: '2027-01-05 10:00',
            end_date: '2027-01-05 12:00',
            venue: 3,
            categories: [5],
          }),
        });
        await res.text();
        if (res.status !== 201) console.log(res.status);
        lat.push(performance.now() - t);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  console.log(`${N} writes in ${secs.toFixed(1)} s = ${(N / secs).toFixed(1)}/s; p50 ${lat[N >> 1]!.toFixed(0)} ms`);
  for (const [k, v] of [...stats].sort((a, b) => b[1].ms - a[1].ms))
    console.log(`${k}: n=${v.n} total=${v.ms.toFixed(0)} ms avg=${(v.ms / v.n).toFixed(1)}`);
  server.close();
  await services.close();
}
main();
