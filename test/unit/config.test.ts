import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_ENV_VARS, ConfigError, httpOrigin, loadConfig } from '../../config';
import { loadEmbeddedSettings } from '../../config/embedded';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('config', () => {
  it('writes an http origin with an IPv6 host in brackets (the address the API prints)', () => {
    expect(httpOrigin('127.0.0.1', 8080)).to.equal('http://127.0.0.1:8080');
    expect(httpOrigin('::1', 8080)).to.equal('http://[::1]:8080');
    expect(httpOrigin('localhost', 1)).to.equal('http://localhost:1');
  });

  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).to.deep.equal({
      env: 'development',
      http: {
        host: '127.0.0.1',
        port: 8080,
        bodyLimitBytes: 1024 * 1024,
        bodyTimeoutMs: 60_000,
        shutdownGraceMs: 8000,
        corsOrigins: '*',
        cacheMaxAgeSeconds: 0,
      },
      siteUrl: 'http://127.0.0.1:8080',
      apiUrl: 'http://127.0.0.1:8080',
      defaultLanguage: 'en',
      defaultTimezone: 'UTC',
      mongo: { url: undefined, database: 'calendar', timeoutMs: 2000 },
      elasticsearch: {
        url: undefined,
        indexPrefix: 'calendar',
        timeoutMs: 2000,
        refreshInterval: '500ms',
        refreshIntervalMs: 500,
      },
      sync: {
        inProcess: true,
        pollMs: 200,
        batchSize: 500,
        leaseMs: 30_000,
        flushBytes: 5 * 1024 * 1024,
        flushMs: 50,
        concurrency: 2,
        waitForIndexMs: 5_000,
      },
      auth: { bootstrapAdminKey: true, keyCacheMs: 1_000 },
      rateLimit: {
        enabled: true,
        writesPerKey: 600,
        writesPerIp: 1200,
        authFailuresPerIp: 30,
        walksPerIp: 120,
        trustedProxies: 0,
      },
      integration: { tokenSecret: undefined, changesRetentionMs: 30 * 86_400_000, changesSettleMs: 1000 },
      webhooks: {
        secretKey: undefined,
        secretKeyFile: '.data/webhook-secret.key',
        allowPrivate: false,
        retryHours: 24,
        timeoutMs: 10_000,
        retryBaseMs: 1000,
        retryMaxMs: 3_600_000,
        concurrency: 8,
        concurrencyPerTarget: 4,
        pollMs: 500,
      },
      recurrence: { maxOccurrences: 1000, horizonDays: 730 },
      logLevel: 'info',
    });
  });

  it('keeps WEBHOOK_CONCURRENCY_PER_TARGET within WEBHOOK_CONCURRENCY', () => {
    const per = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).webhooks.concurrencyPerTarget;
    expect(per({ WEBHOOK_CONCURRENCY_PER_TARGET: '6' })).to.equal(6);
    expect(per({ WEBHOOK_CONCURRENCY: '2', WEBHOOK_CONCURRENCY_PER_TARGET: '6' })).to.equal(2);
  });

  it('reads WEBHOOK_SECRET_KEY as 32 bytes of base64; production has no generated key', () => {
    const key = Buffer.alloc(32, 9);
    const config = loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: key.toString('base64') });
    expect(config.webhooks.secretKey).to.deep.equal(key);
    expect(config.webhooks.secretKeyFile).to.equal(null);
    expect(configError({ WEBHOOK_SECRET_KEY: Buffer.alloc(16).toString('base64') }).message).to.match(
      /^invalid setting WEBHOOK_SECRET_KEY: .*must be 32 bytes in base64/,
    );
  });

  it('reads overrides from the environment, converting numbers and booleans', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: '9000',
      PUBLIC_API_URL: 'https://api.example.org/',
      SITE_URL: 'https://example.org//',
      DEFAULT_LANGUAGE: 'fr',
      DEFAULT_TIMEZONE: 'Europe/Paris',
      MONGO_URL: 'mongodb://mongo:27017/?replicaSet=rs0',
      MONGO_DATABASE: 'calendar_prod',
      ELASTICSEARCH_URL: 'http://elasticsearch:9200',
      INDEX_PREFIX: 'cal-prod',
      INDEX_REFRESH_INTERVAL: '2s',
      SYNC_IN_PROCESS: 'false',
      SYNC_BATCH_SIZE: '50',
      LOG_LEVEL: 'warn',
    });
    expect(config.env).to.equal('production');
    expect(config.http).to.deep.include({ host: '0.0.0.0', port: 9000 });
    expect(config.apiUrl).to.equal('https://api.example.org');
    expect(config.siteUrl).to.equal('https://example.org');
    expect(config.defaultLanguage).to.equal('fr');
    expect(config.defaultTimezone).to.equal('Europe/Paris');
    expect(config.mongo).to.deep.include({ url: 'mongodb://mongo:27017/?replicaSet=rs0', database: 'calendar_prod' });
    expect(config.elasticsearch).to.deep.include({
      url: 'http://elasticsearch:9200',
      indexPrefix: 'cal-prod',
      refreshInterval: '2s',
      refreshIntervalMs: 2000,
    });
    expect(config.sync).to.deep.include({ inProcess: false, batchSize: 50 });
    expect(config.logLevel).to.equal('warn');
  });

  it('derives the API URL from HOST and PORT when PUBLIC_API_URL is unset', () => {
    expect(loadConfig({ HOST: 'localhost', PORT: '3000' }).apiUrl).to.equal('http://localhost:3000');
    expect(loadConfig({ HOST: '::1', PORT: '3000' }).apiUrl).to.equal('http://[::1]:3000');
    expect(configError({ PORT: '0' }).message).to.match(/^invalid setting PUBLIC_API_URL: PORT=0/);
    expect(loadConfig({ PORT: '0', PUBLIC_API_URL: 'http://127.0.0.1:4000/' }).apiUrl).to.equal(
      'http://127.0.0.1:4000',
    );
  });

  it('derives the site URL from the API URL when SITE_URL is unset: both follow HOST and PORT (record url, website, global_id)', () => {
    const moved = loadConfig({ PORT: '8180' });
    expect([moved.apiUrl, moved.siteUrl]).to.deep.equal(['http://127.0.0.1:8180', 'http://127.0.0.1:8180']);
    expect(loadConfig({ HOST: '::1', PORT: '3000' }).siteUrl).to.equal('http://[::1]:3000');
    expect(loadConfig({ PUBLIC_API_URL: 'https://api.example.org/' }).siteUrl).to.equal('https://api.example.org');
    expect(loadConfig({ PORT: '8180', SITE_URL: 'https://example.org/' }).siteUrl).to.equal('https://example.org');
  });

  describe('embedded servers (npm run services:*)', () => {
    it('default to ports 9250 and 27050 in .services/dev', () => {
      expect(loadEmbeddedSettings({})).to.deep.equal({ elasticsearchPort: 9250, mongoPort: 27050, instance: 'dev' });
      expect(
        loadEmbeddedSettings({
          EMBEDDED_ELASTICSEARCH_PORT: '9251',
          EMBEDDED_MONGO_PORT: '27051',
          EMBEDDED_INSTANCE: 'b',
        }),
      ).to.deep.equal({ elasticsearchPort: 9251, mongoPort: 27051, instance: 'b' });
    });

    it('refuse a bad setting with one line naming it', () => {
      const message = (env: NodeJS.ProcessEnv) => {
        try {
          loadEmbeddedSettings(env);
        } catch (err) {
          if (err instanceof ConfigError) return err.message;
          throw err;
        }
        throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
      };
      expect(message({ EMBEDDED_MONGO_PORT: '70000' })).to.match(/^invalid setting EMBEDDED_MONGO_PORT: /);
      expect(message({ EMBEDDED_ELASTICSEARCH_PORT: 'x' })).to.match(/^invalid setting EMBEDDED_ELASTICSEARCH_PORT: /);
      expect(message({ EMBEDDED_ELASTICSEARCH_PORT: '9300', EMBEDDED_MONGO_PORT: '9300' })).to.match(
        /^invalid setting EMBEDDED_MONGO_PORT: it must differ from EMBEDDED_ELASTICSEARCH_PORT/,
      );
      expect(message({ EMBEDDED_INSTANCE: '../x' })).to.match(/^invalid setting EMBEDDED_INSTANCE: /);
      expect(message({ EMBEDDED_INSTANCE: 'cache' })).to.match(/^invalid setting EMBEDDED_INSTANCE: /);
    });
  });

  it('creates the first-run admin key only in development unless told otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).auth.bootstrapAdminKey).to.equal(true);
    expect(loadConfig({ NODE_ENV: 'production' }).auth.bootstrapAdminKey).to.equal(false);
    expect(loadConfig({ NODE_ENV: 'test' }).auth.bootstrapAdminKey).to.equal(false);
    expect(loadConfig({ NODE_ENV: 'development', BOOTSTRAP_ADMIN_KEY: 'false' }).auth.bootstrapAdminKey).to.equal(
      false,
    );
  });

  it('waits for a write to be searchable up to WAIT_FOR_INDEX_MS, 5 s by default (CONTRACT part 8)', () => {
    expect(loadConfig({}).sync.waitForIndexMs).to.equal(5_000);
    expect(loadConfig({ WAIT_FOR_INDEX_MS: '20000' }).sync.waitForIndexMs).to.equal(20_000);
    expect(configError({ WAIT_FOR_INDEX_MS: '99' }).message).to.match(/^invalid setting WAIT_FOR_INDEX_MS: /);
    expect(configError({ WAIT_FOR_INDEX_MS: 'soon' }).message).to.match(/^invalid setting WAIT_FOR_INDEX_MS: /);
  });

  it('trusts a verified API key for API_KEY_CACHE_MS, a second by default, at most a minute', () => {
    expect(loadConfig({}).auth.keyCacheMs).to.equal(1_000);
    expect(loadConfig({ API_KEY_CACHE_MS: '0' }).auth.keyCacheMs).to.equal(0);
    expect(configError({ API_KEY_CACHE_MS: '60001' }).message).to.match(/^invalid setting API_KEY_CACHE_MS: /);
    expect(configError({ API_KEY_CACHE_MS: '-1' }).message).to.match(/^invalid setting API_KEY_CACHE_MS: /);
  });

  it('rate-limits outside tests unless told otherwise, with limits from the environment', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).rateLimit.enabled).to.equal(true);
    expect(loadConfig({ NODE_ENV: 'test' }).rateLimit.enabled).to.equal(false);
    expect(loadConfig({ NODE_ENV: 'test', RATE_LIMIT: 'true' }).rateLimit.enabled).to.equal(true);
    expect(loadConfig({ NODE_ENV: 'production', RATE_LIMIT: 'false' }).rateLimit.enabled).to.equal(false);
    expect(
      loadConfig({
        RATE_LIMIT_WRITES_PER_KEY: '5',
        RATE_LIMIT_WRITES_PER_IP: '7',
        RATE_LIMIT_AUTH_FAILURES_PER_IP: '3',
        RATE_LIMIT_WALKS_PER_IP: '4',
        RATE_LIMIT_TRUSTED_PROXIES: '1',
      }).rateLimit,
    ).to.deep.equal({
      enabled: true,
      writesPerKey: 5,
      writesPerIp: 7,
      authFailuresPerIp: 3,
      walksPerIp: 4,
      trustedProxies: 1,
    });
    expect(configError({ RATE_LIMIT_WRITES_PER_KEY: '0' }).message).to.match(
      /^invalid setting RATE_LIMIT_WRITES_PER_KEY: /,
    );
  });

  it('reads CORS_ORIGINS as any origin, none, or a list of origins', () => {
    const origins = (value: string) => loadConfig({ CORS_ORIGINS: value }).http.corsOrigins;
    expect(origins('*')).to.equal('*');
    expect(origins('none')).to.deep.equal([]);
    expect(origins('https://events.example, http://localhost:3000')).to.deep.equal([
      'https://events.example',
      'http://localhost:3000',
    ]);
  });

  it('keeps the default time zone under its canonical IANA name, as event time zones are stored', () => {
    expect(loadConfig({ DEFAULT_TIMEZONE: 'europe/paris' }).defaultTimezone).to.equal('Europe/Paris');
    expect(loadConfig({ DEFAULT_TIMEZONE: 'utc' }).defaultTimezone).to.equal('UTC');
    expect(loadConfig({ DEFAULT_TIMEZONE: 'Asia/Calcutta' }).defaultTimezone).to.equal('Asia/Kolkata');
    expect(loadConfig({ DEFAULT_TIMEZONE: 'europe/amsterdam' }).defaultTimezone).to.equal('Europe/Amsterdam');
    expect(() => loadConfig({ DEFAULT_TIMEZONE: 'Mars/Olympus' })).to.throw(/DEFAULT_TIMEZONE/);
  });

  it('ignores environment variables it does not know', () => {
    expect(loadConfig({ PATH: '/usr/bin', SOMETHING_ELSE: 'x' })).to.deep.equal(loadConfig({}));
  });

  const badSettings: Array<[string, string]> = [
    ['PUBLIC_API_URL', 'https://api.example/base?x=1'],
    ['SITE_URL', 'https://events.example/#top'],
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['NODE_ENV', 'staging'],
    ['DEFAULT_LANGUAGE', 'es'],
    ['DEFAULT_TIMEZONE', 'Mars/Olympus_Mons'],
    ['DEFAULT_TIMEZONE', '+02:00'],
    ['MONGO_URL', 'http://127.0.0.1:27017'],
    ['ELASTICSEARCH_URL', 'not a url'],
    ['INDEX_PREFIX', 'Upper Case'],
    ['SYNC_IN_PROCESS', 'maybe'],
    ['LOG_LEVEL', 'verbose'],
    ['ELASTICSEARCH_TIMEOUT_MS', '99999999999'],
    ['MONGO_TIMEOUT_MS', '3000000000'],
    ['SYNC_POLL_MS', '3000000000'],
    ['BODY_TIMEOUT_MS', '500'],
    ['BODY_TIMEOUT_MS', '3000000000'],
    ['BULK_FLUSH_BYTES', '1000000000'],
    ['RATE_LIMIT_WRITES_PER_KEY', '2000000'],
    ['CORS_ORIGINS', 'https://events.example/path'],
    ['CORS_ORIGINS', 'events.example'],
    ['CACHE_MAX_AGE', '-1'],
    ['CACHE_MAX_AGE', 'soon'],
    ['CORS_ORIGINS', 'https://Events.example:443'],
    ['WEBHOOK_CONCURRENCY_PER_TARGET', '0'],
    ['WEBHOOK_CONCURRENCY_PER_TARGET', 'many'],
  ];
  for (const [name, value] of badSettings) {
    it(`rejects ${name}=${value} with one line naming the setting`, () => {
      const err = configError({ [name]: value });
      expect(err.message).to.match(new RegExp(`^invalid setting ${name}: `));
      expect(err.message).not.to.include('\n');
    });
  }

  it('stops `npm start` before anything starts, printing that one line and exiting 2', function () {
    this.timeout(45_000);
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/dev/start.ts'], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 40_000,
    });
    expect(result.status).to.equal(2);
    expect(result.stderr.trim()).to.match(/^calendar: invalid setting PORT: "PORT" must be a number$/);
    expect(result.stdout).to.equal('');
  });

  it('documents every setting in the README configuration table', () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).to.have.members([...CONFIG_ENV_VARS]);
  });
});
