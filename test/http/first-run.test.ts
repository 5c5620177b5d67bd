import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { request } from '../support/api';
import { testWorld } from '../support/harness';
import { PROJECT_ROOT, runEntry } from '../support/processes';

/** Another process on a port (another copy of the API, or of the servers). */
async function occupy(): Promise<{ port: number; release(): Promise<void> }> {
  const server = net.createServer((socket) => socket.end());
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    port: (server.address() as net.AddressInfo).port,
    release: () => new Promise((closed) => server.close(() => closed())),
  };
}

/** The scratch folders `npm start` makes for servers it starts (`.services/start-<pid>`). */
function scratchFolders(): string[] {
  const dir = path.join(PROJECT_ROOT, '.services');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('start-')) : [];
}

describe('first run', function () {
  this.timeout(120_000);

  describe('GET / (outside the namespace)', () => {
    it('redirects (302) to the browsable reference page, which answers', async () => {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await fetch(`${testWorld().baseUrl}/`, { method, redirect: 'manual' });
        expect(res.status, method).to.equal(302);
        expect(res.headers.get('location'), method).to.equal('/calendar/events/v1/doc?format=html');
      }
      const page = await fetch(`${testWorld().baseUrl}/`);
      expect(page.status).to.equal(200);
      expect(page.url).to.equal(`${testWorld().baseUrl}/calendar/events/v1/doc?format=html`);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
    });

    it('is not a redirect for a write', async () => {
      const res = await request('POST', '/', {});
      expect(res.status).to.be.oneOf([404, 405]);
      expect(res.body).to.have.nested.property('data.status', res.status);
    });
  });

  describe('a taken port', () => {
    it('npm start with PORT taken fails at once, naming PORT, before starting any server or printing a key', async () => {
      const taken = await occupy();
      const before = scratchFolders();
      try {
        const result = await runEntry('src/dev/start.ts', [], {
          PORT: String(taken.port),
          EMBEDDED_INSTANCE: 'first-run-test',
        });
        expect(result.code).to.equal(2);
        expect(result.stderr.trim()).to.equal(
          `calendar: could not start: port ${taken.port} (PORT) is taken by another process: set PORT to a free port, or stop what listens on 127.0.0.1:${taken.port}`,
        );
        expect(result.stdout).to.equal('');
        expect(scratchFolders()).to.deep.equal(before);
      } finally {
        await taken.release();
      }
    });

    it('the production entry point too, once MONGO_URL and ELASTICSEARCH_URL are set', async () => {
      const taken = await occupy();
      try {
        const { config } = testWorld();
        const result = await runEntry('src/app/main.ts', [], {
          PORT: String(taken.port),
          MONGO_URL: config.mongo.url as string,
          ELASTICSEARCH_URL: config.elasticsearch.url as string,
        });
        expect(result.code).to.equal(2);
        expect(result.stderr).to.include(`port ${taken.port} (PORT) is taken by another process`);
      } finally {
        await taken.release();
      }
    });

    it('services:start with an embedded port taken refuses it naming the variable, prints no success, starts nothing', async () => {
      const taken = await occupy();
      const free = await occupy();
      await free.release();
      const env = {
        EMBEDDED_INSTANCE: `first-run-${process.pid}`,
        EMBEDDED_ELASTICSEARCH_PORT: String(taken.port),
        EMBEDDED_MONGO_PORT: String(free.port),
      };
      try {
        const result = await runEntry('scripts/services.ts', ['start'], env);
        expect(result.code).to.equal(2);
        expect(result.stderr.trim()).to.equal(
          `services: port ${taken.port} (EMBEDDED_ELASTICSEARCH_PORT) is taken by another process: set EMBEDDED_ELASTICSEARCH_PORT to a free port, or stop what listens on 127.0.0.1:${taken.port}`,
        );
        expect(result.stdout).to.equal('');
        const status = await runEntry('scripts/services.ts', ['status'], env);
        expect([status.code, status.stdout.trim()]).to.deep.equal([
          1,
          'not running (start them with "npm run services:start")',
        ]);
      } finally {
        await taken.release();
      }
    });
  });

  it('the production entry points refuse to start without MONGO_URL and ELASTICSEARCH_URL (they never start servers)', async () => {
    for (const [file, name] of [
      ['src/app/main.ts', 'calendar'],
      ['src/app/worker.ts', 'calendar worker'],
    ]) {
      const result = await runEntry(file as string, [], { MONGO_URL: 'mongodb://127.0.0.1:1/' });
      expect(result.code, file).to.equal(2);
      expect(result.stderr.trim(), file).to.equal(
        `${name}: could not start: ELASTICSEARCH_URL must be set (the addresses of MongoDB and Elasticsearch); for development without them, run "npm start"`,
      );
    }
  });
});
