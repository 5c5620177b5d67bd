import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FuzzRequest } from './requests';

export interface FuzzAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: unknown;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/**
 * Sends `request` byte for byte (the path is not normalised: `..` and `%2F` reach the server as
 * written). Status 0: no answer within `timeoutMs`, or the connection failed.
 */
export function send(baseUrl: string, request: FuzzRequest, timeoutMs: number): Promise<FuzzAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (answer: Omit<FuzzAnswer, 'ms'>) => resolve({ ...answer, ms: performance.now() - started });
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const req = http.request(
      {
        host: hostname,
        port: Number(port),
        method: request.method,
        path: request.path,
        agent,
        headers: { ...request.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          // Decoded as a client would: a body that does not decode is an answer that fails here.
          let text: string;
          try {
            text = (
              encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw
            ).toString();
          } catch (err) {
            return done({
              status: 0,
              headers: res.headers,
              text: `undecodable ${encoding} body: ${err}`,
              body: undefined,
            });
          }
          let parsed: unknown = text;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            /* not JSON */
          }
          done({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
        res.on('error', (err) => done({ status: 0, headers: {}, text: String(err), body: undefined }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => done({ status: 0, headers: {}, text: String(err), body: undefined }));
    req.end(body);
  });
}
