import { loadConfig } from '../../config';
import { createLogger } from '../../src/lib/log';
import { reindex } from '../../src/indexer/reindex/reindex';
import { openServices } from '../../src/services/container';

/**
 * A full reindex of the events (every language) in its own process, as `npm run reindex` runs
 * it: prints records, seconds, records/s and the process's peak RSS as JSON on stdout.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const services = await openServices(config, createLogger(config.logLevel));
  try {
    const result = await reindex(services, { kinds: ['event'] });
    const events = result.kinds.find((k) => k.kind === 'event');
    const records = events?.records ?? 0;
    const seconds = events?.seconds ?? result.seconds;
    process.stdout.write(
      `${JSON.stringify({ records, seconds, recordsPerSecond: records / seconds, errors: result.errors, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
    );
  } finally {
    await services.close();
  }
}

main().catch((err: Error) => {
  console.error(`bench reindex: ${err.stack ?? err.message}`);
  process.exit(1);
});
