import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answersAs } from '../../../src/dev/elasticsearchServer';
import { isAlive } from '../../../src/dev/managedProcess';
import { startJongodb } from '../../../src/dev/mongoServer';
import { assertCanListen, listenError } from '../../../src/lib/ports';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Another copy's server: something that accepts connections on a port, as the issue found. */
async function occupy(): Promise<{ port: number; server: net.Server }> {
  const server = net.createServer((socket) => socket.end());
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { port: (server.address() as net.AddressInfo).port, server };
}

const close = (server: net.Server | Server) => new Promise((closed) => server.close(closed));

describe('embedded servers: ports and identity', function () {
  this.timeout(30_000);

  it('a taken port is found before anything starts, and named by the setting that chose it', async () => {
    const { port, server } = await occupy();
    try {
      expect((await listenError('127.0.0.1', port))?.code).to.equal('EADDRINUSE');
      const refused = await assertCanListen('127.0.0.1', port, 'EMBEDDED_MONGO_PORT').catch((err: Error) => err);
      expect((refused as Error).message).to.equal(
        `port ${port} (EMBEDDED_MONGO_PORT) is taken by another process: set EMBEDDED_MONGO_PORT to a free port, or stop what listens on 127.0.0.1:${port}`,
      );
    } finally {
      await close(server);
    }
    expect(await listenError('127.0.0.1', port)).to.equal(undefined);
  });

  it('jongodb that dies at start (its port answered by another server) is a failure, never a success', async () => {
    const { port, server } = await occupy();
    const instanceDir = mkdtempSync(path.join(tmpdir(), 'jongodb-'));
    try {
      const failed = await startJongodb({ projectRoot: PROJECT_ROOT, instanceDir, port, database: 'x', log: () => {} })
        .then((instance) => instance)
        .catch((err: Error) => err);
      expect(failed).to.be.instanceOf(Error);
      expect((failed as Error).message).to.match(
        new RegExp(`^jongodb did not start on port ${port}: failed to allocate TCP server socket`),
      );
    } finally {
      await close(server);
    }
  });

  it('jongodb on a free port is ready once it says so, and alive', async () => {
    const { port, server } = await occupy();
    await close(server);
    const instanceDir = mkdtempSync(path.join(tmpdir(), 'jongodb-'));
    const instance = await startJongodb({ projectRoot: PROJECT_ROOT, instanceDir, port, database: 'x', log: () => {} });
    try {
      expect(instance.url).to.equal(`mongodb://127.0.0.1:${port}/?replicaSet=rs0`);
      expect(isAlive(instance.pid)).to.equal(true);
    } finally {
      await instance.stop();
    }
    expect(isAlive(instance.pid)).to.equal(false);
  });

  it('an Elasticsearch answering on the port is ours only if it has the node name this start gave it', async () => {
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name: 'calendar-es-0badc0de', version: { number: '8.12.2' } }));
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    try {
      expect(await answersAs(url, 'calendar-es-0badc0de')).to.equal(true);
      expect(await answersAs(url, 'calendar-es-12345678')).to.equal(false);
    } finally {
      await close(server);
    }
    expect(await answersAs(url, 'calendar-es-0badc0de')).to.equal(false);
  });
});
