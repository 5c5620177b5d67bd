import { connectForOps, parseFlags, parseKinds, parseLangs, runCli } from '../src/tools/cli';
import { progressTo } from '../src/indexer/progress';
import { formatVerifyReport, verifySync } from '../src/tools/verify/verify';

const USAGE =
  'usage: npm run sync:verify -- [--kind events|venues|organizers|categories|tags|all] [--lang en|fr|de|all] [--repair]';

/**
 * `npm run sync:verify`: compares MongoDB and Elasticsearch (src/tools/verify/verify.ts). Exit 0 when in
 * sync, 1 when not (a deploy gate), 2 on a usage mistake.
 */
runCli('sync:verify', async (argv, signal) => {
  const flags = parseFlags(
    argv,
    { kind: { type: 'string' }, lang: { type: 'string' }, repair: { type: 'boolean' } },
    USAGE,
  );
  const kinds = parseKinds(flags.kind, USAGE);
  const langs = parseLangs(flags.lang, USAGE);
  const repair = Boolean(flags.repair);
  const services = await connectForOps({ signal });
  try {
    const report = await verifySync(services, { kinds, langs, repair, signal, progress: progressTo() });
    for (const line of formatVerifyReport(report, { repair })) console.log(line);
    return report.inSync ? 0 : 1;
  } finally {
    await services.close();
  }
});
