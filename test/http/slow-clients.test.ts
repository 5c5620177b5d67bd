import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type RunningServer } from '../../src/server';
import { testWorld } from '../support/harness';
import { unique } from '../support/lists';

const ROOT = '/calendar/events/v1';
const BODY_TIMEOUT_MS = 800;

/** Sends the headers of a tag creation and the first `sent` bytes of its `length`-byte body. */
function startSlowCreate(server: RunningServer, name: string): { socket: Socket; answer: Promise<string> } {
  const payload = JSON.stringify({ name });
  const { port, hostname } = new URL(server.url);
  const socket = connect(Number(port), hostname, () =>
    socket.write(
      `POST ${ROOT}/tags HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${testWorld().adminKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n${payload.slice(0, 8)}`,
    ),
  );
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { socket, answer };
}

describe('clients that stall or leave while sending a body', () => {
  let server: RunningServer;

  beforeEach(async () => {
    const { services, config } = testWorld();
    server = await startServer(
      { ...services, config: { ...config, http: { ...config.http, bodyTimeoutMs: BODY_TIMEOUT_MS } } },
      '127.0.0.1',
      0,
    );
  });

  afterEach(async () => {
    await server.close(1_000);
  });

  const stored = (name: string) => testWorld().services.stores.tags.docs.countDocuments({ name });

  it('answers a body not received in time 408 in the error envelope, closes the connection and creates nothing', async () => {
    const name = unique('stalled');
    const { answer } = startSlowCreate(server, name);
    const text = await answer;
    const [head, body] = text.split('\r\n\r\n') as [string, string];
    expect(head.split('\r\n')[0]).to.equal('HTTP/1.1 408 Request Timeout');
    expect(head.toLowerCase()).to.include('\r\nconnection: close');
    expect(JSON.parse(body)).to.deep.equal({
      code: 'rest_request_timeout',
      message: 'The request body was not received within 1 s.',
      data: { status: 408 },
    });
    expect(await stored(name)).to.equal(0);
  });

  it('ends a request whose client left mid-body at once: nothing is created and a shutdown does not wait for it', async () => {
    const name = unique('left');
    const { socket, answer } = startSlowCreate(server, name);
    await sleep(100);
    socket.end();
    expect(await answer).to.equal('');
    // A request still waiting for its body would hold close() until its grace (60 s) was over.
    const closed = await Promise.race([server.close(60_000).then(() => 'closed'), sleep(10_000).then(() => 'waiting')]);
    expect(closed).to.equal('closed');
    expect(await stored(name)).to.equal(0);
  });
});
