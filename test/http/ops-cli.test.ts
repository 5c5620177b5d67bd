import net from 'node:net';
import { expect } from 'chai';
import { indexesBehind } from '../../src/indexer/reindex/indexAdmin';
import { aliasName } from '../../src/search/indexNames';
import { reindexTargets } from '../../src/indexer/reindexTargets';
import { testWorld } from '../support/harness';
import { searchReady, settle } from '../support/lists';
import { storeEvent } from '../support/records';
import { runScript, startScript } from '../support/scripts';
import { readUntil } from '../reliability/support/http';

/** Nothing listens on port 1. */
const NOWHERE = {
  MONGO_URL: 'mongodb://127.0.0.1:1/',
  ELASTICSEARCH_URL: 'http://127.0.0.1:1',
  MONGO_TIMEOUT_MS: '500',
};

/** A TCP relay to `target` that can be cut: `close()` drops its connections and refuses new ones. */
async function tcpProxy(target: URL): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on('error', () => undefined).on('close', () => sockets.delete(end));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((closed) => {
        server.close(() => closed());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

function oneLine(text: string): string {
  const lines = text.split('\n').filter((line) => line !== '');
  expect(lines, text).to.have.length(1);
  return lines[0] as string;
}

describe('ops scripts: flags, failures, output', function () {
  this.timeout(120_000);

  describe('a bad flag: one line with the usage, exit 2, nothing done', () => {
    const cases: [string, string[], RegExp][] = [
      [
        'reindex',
        ['--kind', 'bogus'],
        /^reindex: unknown --kind "bogus": use one of events, venues, organizers, categories, tags or all; usage: npm run reindex -- /,
      ],
      ['reindex', ['--lang', 'es'], /^reindex: unknown --lang "es": use one of en, fr, de or all; usage: /],
      ['reindex', ['--batch', '0'], /^reindex: --batch must be a whole number from 1 to 10000, not "0"; usage: /],
      [
        'reindex',
        ['--batch', '-5'],
        /^reindex: --batch needs a value: one that starts with "-" is written --batch=VALUE; usage: /,
      ],
      ['reindex', ['--batch=-5'], /^reindex: --batch must be a whole number from 1 to 10000, not "-5"; usage: /],
      ['reindex', ['--frobnicate'], /^reindex: Unknown option '--frobnicate'; usage: npm run reindex -- /],
      ['reindex', ['events'], /^reindex: Unexpected argument 'events'; usage: /],
      [
        'reindex',
        ['--kind', 'events', '--kind', 'venues'],
        /^reindex: --kind is given twice: give it once; usage: npm run reindex -- /,
      ],
      [
        'sync-verify',
        ['--kind'],
        /^sync:verify: Option '--kind <value>' argument missing; usage: npm run sync:verify -- /,
      ],
      ['sync-verify', ['--repair=yes'], /^sync:verify: Option '--repair' does not take an argument; usage: /],
      ['seed', [], /^seed: --events is required; usage: npm run seed -- --events N /],
      ['seed', ['--events', 'ten'], /^seed: --events must be a whole number from 1 to 1000000, not "ten"; usage: /],
      [
        'seed',
        ['--events', '5', '--index', 'later'],
        /^seed: unknown --index "later": use one of reindex, worker, none; usage: /,
      ],
    ];
    for (const [script, args, message] of cases) {
      it(`${script} ${args.join(' ')}`, async () => {
        // Unreachable servers prove the flags are checked before connecting.
        const result = await runScript(script, args, NOWHERE);
        expect(result.code, result.stderr).to.equal(2);
        expect(oneLine(result.stderr)).to.match(message);
        expect(result.stdout).to.equal('');
      });
    }
  });

  it('-h and --help print the usage on stdout and exit 0, doing nothing', async () => {
    for (const [script, args] of [
      ['reindex', ['-h']],
      ['sync-verify', ['--kind', 'events', '--help']],
      ['seed', ['--help']],
      ['apikey', ['create', '--help']],
    ] as const) {
      const result = await runScript(script, [...args], NOWHERE);
      expect(result.code, `${script} ${args.join(' ')}: ${result.stderr}`).to.equal(0);
      expect(result.stdout).to.match(/^usage: npm run /);
      expect(result.stderr).to.equal('');
    }
  });

  describe('unreachable services: one line saying what and what to do, exit 3', () => {
    it('Elasticsearch down', async () => {
      const result = await runScript('reindex', [], NOWHERE);
      expect(result.code).to.equal(3);
      expect(oneLine(result.stderr)).to.equal(
        'reindex: Elasticsearch does not answer at http://127.0.0.1:1: start it (npm run services:start) or set ELASTICSEARCH_URL',
      );
    });

    it('MongoDB down', async () => {
      const result = await runScript('sync-verify', [], { MONGO_URL: NOWHERE.MONGO_URL, MONGO_TIMEOUT_MS: '500' });
      expect(result.code).to.equal(3);
      expect(oneLine(result.stderr)).to.match(
        /^sync:verify: could not connect to MongoDB at mongodb:\/\/127\.0\.0\.1:1\/ \(.+\): start it \(npm run services:start\) or set MONGO_URL$/,
      );
    });

    it('credentials in a URL are not printed', async () => {
      const result = await runScript('seed', ['--events', '1'], {
        ...NOWHERE,
        MONGO_URL: 'mongodb://admin:s3cret@127.0.0.1:1/',
        ELASTICSEARCH_URL: 'http://elastic:s3cret@127.0.0.1:1',
      });
      expect(result.code).to.equal(3);
      expect(oneLine(result.stderr)).to.equal(
        'seed: Elasticsearch does not answer at http://elastic:***@127.0.0.1:1: start it (npm run services:start) or set ELASTICSEARCH_URL',
      );
    });
  });

  describe('npm run reindex', () => {
    before(async function () {
      this.timeout(120_000);
      await searchReady();
    });

    it('--dry-run prints the plan and changes nothing', async () => {
      const alias = aliasName(testWorld().config, 'tag', 'en');
      const before = await indexesBehind(testWorld().services.search, alias);
      const result = await runScript('reindex', ['--kind', 'tags', '--lang', 'en', '--dry-run']);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.match(
        new RegExp(
          `^tags/en: ${alias} → ${before[0]} \\(\\d+ documents\\); would build ${alias}-v\\d+ from \\d+ records and swap\\n`,
        ),
      );
      expect(result.stdout).to.match(/^dry run: nothing changed \(\d+ records would be indexed\)$/m);
      expect(await indexesBehind(testWorld().services.search, alias)).to.deep.equal(before);
    });

    it('rebuilds, printing the swap, progress lines and a summary (records, seconds, records/s, errors)', async () => {
      const alias = aliasName(testWorld().config, 'tag', 'en');
      const before = await indexesBehind(testWorld().services.search, alias);
      const result = await runScript('reindex', ['--kind', 'tags', '--lang', 'en', '--batch', '2']);
      expect(result.code, result.stderr).to.equal(0);
      const after = await indexesBehind(testWorld().services.search, alias);
      expect(after).to.have.length(1).and.not.deep.equal(before);
      expect(result.stdout).to.include(`tags/en: ${alias} → ${after[0]} (`);
      expect(result.stdout).to.match(/^reindexed \d+ records in \d+\.\d s \([\d.]+ records\/s\), 0 errors$/m);
      expect(result.stderr).to.match(/^reindex tags: \d+ records in \d+\.\d s \([\d.]+ records\/s\), 0 errors$/m);
      const { apiUrl, siteUrl } = testWorld().config;
      expect(result.stderr).to.include(
        `reindex: links start with ${apiUrl} (PUBLIC_API_URL) and ${siteUrl} (SITE_URL): the API's own settings?\n`,
      );
    });

    it('Elasticsearch gone in the middle: stops at once, exit 3, the alias still serves the old index', async () => {
      const { services, config } = testWorld();
      for (let i = 0; i < 25; i++) await storeEvent('en', { title: `cut off ${i}` });
      await settle();
      const alias = aliasName(config, 'event', 'en');
      const before = await indexesBehind(services.search, alias);
      const proxy = await tcpProxy(new URL(config.elasticsearch.url as string));
      const { child, done } = startScript('reindex', ['--kind', 'events', '--batch', '1'], {
        ELASTICSEARCH_URL: proxy.url,
      });
      await readUntil(
        () => reindexTargets(services.db).countDocuments({}),
        (targets) => targets > 0,
        60_000,
        20,
      );
      await proxy.close();
      const result = await done;
      child.kill();
      expect(result.code, result.stderr).to.equal(3);
      expect(result.stderr).to.match(
        /^reindex: Elasticsearch stopped answering \(.+\): the live aliases are unchanged; once it answers, run the reindex again$/m,
      );
      // Its progress summary does not read as a complete run ("N records …, 0 errors").
      expect(result.stderr).to.match(/^reindex events: stopped after \d+ records in \d+\.\d s$/m);
      expect(result.stderr).not.to.match(/^reindex events: \d+ records in/m);
      expect(await indexesBehind(services.search, alias)).to.deep.equal(before);
      // Its leftovers (the half-built index, the registration) are for the next run to clear.
      const rerun = await runScript('reindex', ['--kind', 'events']);
      expect(rerun.code, rerun.stderr).to.equal(0);
    });

    for (const [signal, signals, code, how] of [
      ['SIGINT', 1, 130, 'Ctrl-C'],
      ['SIGINT', 2, 130, 'Ctrl-C delivered twice at once (by the terminal and a wrapper)'],
      ['SIGTERM', 1, 143, 'SIGTERM (a service manager, timeout, a cancelled CI job)'],
    ] as const) {
      it(`${how} before the swap: cleans up, exit ${code}, the alias still serves the old index`, async () => {
        const { services, config } = testWorld();
        for (let i = 0; i < 25; i++) await storeEvent('en', { title: `interrupted ${i}` });
        await settle();
        const alias = aliasName(config, 'event', 'en');
        const before = await indexesBehind(services.search, alias);
        const { child, done } = startScript('reindex', ['--kind', 'events', '--batch', '1']);
        await readUntil(
          () => reindexTargets(services.db).countDocuments({}),
          (targets) => targets > 0,
          60_000,
          20,
        );
        for (let i = 0; i < signals; i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, 50));
          child.kill(signal);
        }
        const result = await done;
        expect(result.code, result.stderr).to.equal(code);
        expect(result.stderr).to.match(
          /^reindex: interrupted before the swap: the live aliases are unchanged; run the reindex again$/m,
        );
        expect(await indexesBehind(services.search, alias)).to.deep.equal(before);
        expect(Object.keys(await services.search.indices.get({ index: `${alias}-v*` }))).to.deep.equal(before);
        expect(await reindexTargets(services.db).countDocuments({})).to.equal(0);
      });
    }
  });
});
