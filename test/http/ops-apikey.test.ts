import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { api } from '../support/api';
import { testWorld } from '../support/harness';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run apikey -- <args>` (without npm's banner) against the test world's database. */
function apikey(...args: string[]): Promise<ScriptResult> {
  return apikeyWith({}, ...args);
}

function apikeyWith(overrides: Record<string, string>, ...args: string[]): Promise<ScriptResult> {
  const { config } = testWorld();
  const env = {
    PATH: process.env.PATH,
    MONGO_URL: config.mongo.url,
    MONGO_DATABASE: config.mongo.database,
    ...overrides,
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/apikey.ts', ...args],
      { cwd: PROJECT_ROOT, env, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('npm run apikey', function () {
  this.timeout(60_000);

  let key: string;
  let keyId: string;

  it('create prints the new key alone on stdout, once, and stores only its hash', async () => {
    const result = await apikey('create', '--role', 'administrator', '--name', 'script test');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.match(/^cal_[A-Za-z0-9_-]{43}\n$/);
    const created = /created API key ([0-9a-f]{12}) "script test" \(administrator, user \d+\)/.exec(result.stderr);
    expect(created, result.stderr).to.not.equal(null);
    key = result.stdout.trim();
    keyId = created![1]!;

    const stored = await testWorld()
      .services.db.collection('api_keys')
      .findOne({ _id: keyId as never });
    expect(stored).to.include({ name: 'script test', role: 'administrator', revokedAt: null });
    expect(JSON.stringify(stored)).not.to.include(key.slice(4));
  });

  it('the printed key authenticates requests to the API', async () => {
    const res = await api.get('', { key });
    expect(res.status).to.equal(200);
    expect(res.body.namespace).to.equal('calendar/events/v1');
  });

  it('list shows the key as active without its secret', async () => {
    const result = await apikey('list');
    expect(result.code, result.stderr).to.equal(0);
    const line = result.stdout.split('\n').find((l) => l.startsWith(keyId));
    expect(line).to.match(/administrator\s+user \d+\s+\S+Z\s+active\s+script test$/);
    expect(result.stdout).not.to.include(key);
  });

  it('revoke stops the key: the API then answers 401 with WWW-Authenticate: Bearer', async () => {
    const result = await apikey('revoke', keyId);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal(`revoked API key ${keyId}\n`);

    // Revoked by another process: this API process trusts what it verified for API_KEY_CACHE_MS.
    await sleep(testWorld().services.config.auth.keyCacheMs);
    const res = await api.get('', { key });
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.match(/^Bearer\b/);
    expect(res.body).to.deep.equal({
      code: 'rest_unauthorized',
      message: 'The API key is missing, malformed, unknown or revoked.',
      data: { status: 401 },
    });

    const listed = await apikey('list');
    expect(listed.stdout.split('\n').find((l) => l.startsWith(keyId))).to.match(/revoked \d{4}-\d\d-\d\dT\S+Z/);
  });

  it('revoking an unknown or already revoked key fails with one line and exit 1', async () => {
    const result = await apikey('revoke', keyId);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal(`apikey: no active key with ID "${keyId}" (see "npm run apikey -- list")\n`);
    expect(result.stdout).to.equal('');
  });

  it('bad flags fail with one line saying what to do and exit 2, without touching the database', async () => {
    const before = await testWorld().services.apiKeys.count();
    const results = await Promise.all(
      [
        ['create', '--role', 'king', '--name', 'x'],
        ['create', '--name', 'no role'],
        ['create', '--role', 'editor', '--colour', 'red'],
        ['revoke'],
        ['launch'],
      ].map(async (args) => ({ args: args.join(' '), ...(await apikey(...args)) })),
    );
    for (const result of results) {
      expect(result.code, result.args).to.equal(2);
      expect(result.stderr, result.args).to.match(/^apikey: [^\n]+\n$/);
      expect(result.stdout, result.args).to.equal('');
    }
    expect(results[0]!.stderr).to.equal(
      'apikey: unknown role "king": use one of administrator, editor, author, contributor\n',
    );
    expect(results[2]!.stderr).to.match(/^apikey: Unknown option '--colour'; usage: npm run apikey -- create/);
    expect(await testWorld().services.apiKeys.count()).to.equal(before);
  });

  it('--help prints the usage (exit 0); an unreachable MongoDB is one line and exit 3', async () => {
    const help = await apikey('--help');
    expect([help.code, help.stdout]).to.deep.equal([0, `${help.stdout.split('\n')[0]}\n`]);
    expect(help.stdout).to.match(/^usage: npm run apikey -- create --role /);
    const down = await apikeyWith({ MONGO_URL: 'mongodb://127.0.0.1:1/', MONGO_TIMEOUT_MS: '500' }, 'list');
    expect(down.code, down.stderr).to.equal(3);
    expect(down.stderr).to.match(
      /^apikey: could not connect to MongoDB at mongodb:\/\/127\.0\.0\.1:1\/ \(.+\): start it \(npm run services:start\) or set MONGO_URL\n$/,
    );
  });
});
