import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type RunningServer } from '../../src/app/server';
import { testWorld } from '../support/harness';
import { unique } from '../support/lists';
import { readUntil } from '../reliability/support/http';

const ROOT = '/calendar/events/v1';

/** Writes `raw` on a new connection; `answer` is all that came back once the server closed it. */
function exchange(
  server: RunningServer,
  raw: string,
): { socket: Socket; sent: Promise<void>; answer: Promise<string> } {
  const { port, hostname } = new URL(server.url);
  let written: () => void;
  const sent = new Promise<void>((resolve) => (written = resolve));
  const socket = connect(Number(port), hostname, () => socket.write(raw, () => written()));
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { socket, sent, answer };
}

/** The headers of a tag creation and the first 8 bytes of its body. */
function unfinishedCreate(name: string): string {
  const payload = JSON.stringify({ name });
  return (
    `POST ${ROOT}/tags HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${testWorld().adminKey}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n${payload.slice(0, 8)}`
  );
}

describe('clients that stall or leave while sending a body', () => {
  let server: RunningServer | undefined;
  const serve = async (bodyTimeoutMs: number) => {
    const { services, config } = testWorld();
    server = await startServer(
      { ...services, config: { ...config, http: { ...config.http, bodyTimeoutMs } } },
      '127.0.0.1',
      0,
    );
    return server;
  };
  const stored = (name: string) => testWorld().services.stores.tags.docs.countDocuments({ name });
  /** Tag creations answered 400 and 500 so far, from this process's request metrics. */
  const refusedCreates = async () => {
    const { body } = await testWorld().services.metrics.render();
    const count = (status: number) => {
      const labels = `{method="POST",route="${ROOT}/tags",status="${status}"}`;
      const line = body.split('\n').find((l) => l.startsWith(`calendar_http_request_duration_seconds_count${labels} `));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    return { 400: count(400), 500: count(500) };
  };

  afterEach(async () => {
    await server?.close(1_000);
    server = undefined;
  });

  it('answers a body not received in time 408 in the error envelope and closes the connection', async () => {
    const name = unique('stalled');
    const text = await exchange(await serve(800), unfinishedCreate(name)).answer;
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

  it('ends a request whose client left mid-body at once, as a 400 (JSON or multipart): a shutdown does not wait for it', async () => {
    // The body timeout (60 s) is not what ends it.
    const running = await serve(60_000);
    const multipart =
      `POST ${ROOT}/tags HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${testWorld().adminKey}\r\n` +
      `Content-Type: multipart/form-data; boundary=zz\r\nContent-Length: 500\r\n\r\n--zz\r\nContent-Disposition: form-data; name="name"\r\n\r\nhalf`;
    const before = await refusedCreates();
    for (const raw of [unfinishedCreate(unique('left')), multipart]) {
      const { socket, sent, answer } = exchange(running, raw);
      await sent;
      await sleep(100);
      socket.end();
      expect(await answer).to.equal('');
    }
    // Counted as the client's failure, not the server's: 400, no 500.
    const counted = await readUntil(refusedCreates, (counts) => counts[400] >= before[400] + 2, 5_000, 50);
    expect(counted).to.deep.equal({ 400: before[400] + 2, 500: before[500] });
    // A request still waiting for its body would hold close() until its grace (60 s) was over.
    const closed = await Promise.race([
      running.close(60_000).then(() => 'closed'),
      sleep(10_000).then(() => 'waiting'),
    ]);
    expect(closed).to.equal('closed');
  });

  it('answers the requests pipelined before one its client left unfinished, then closes', async () => {
    const running = await serve(60_000);
    const { socket, sent, answer } = exchange(
      running,
      `GET ${ROOT} HTTP/1.1\r\nHost: localhost\r\n\r\n${unfinishedCreate(unique('pipelined'))}`,
    );
    await sent;
    await sleep(100);
    socket.end();
    const text = await answer;
    expect([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1])).to.deep.equal(['200']);
    expect(text).to.include('"namespace":"calendar/events/v1"');
  });
});
