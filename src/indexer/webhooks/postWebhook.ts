import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress, RESOLVES_PRIVATELY, urlProblem } from '../../lib/publicAddress';

export interface PostOutcome {
  /** The receiver's status; null when none came (refused target, network error, timeout). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface PostOptions {
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: loopback, private and link-local targets may be reached (tests, development). */
  allowPrivate: boolean;
}

/** The addresses `host` resolves to that may be reached; a private one is refused unless allowed. */
async function permittedAddress(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const found = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  const usable = allowPrivate ? found : found.filter((a) => isPublicAddress(a.address));
  if (usable.length === 0) throw new Error(`${host} ${RESOLVES_PRIVATELY}`);
  return usable[0]!;
}

/** A lookup that answers the address already checked: the connection goes where the check looked. */
function pinnedLookup(address: string, family: number): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * POSTs one webhook: the target checked after DNS resolution and connected to at that address
 * (DNS rebinding cannot switch it), no redirect followed (a 3xx is a failure), the whole exchange
 * bounded by `timeoutMs`, one connection per attempt closed afterwards (nothing piles up).
 */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostOutcome> {
  const started = Date.now();
  const done = (statusCode: number | null, error: string | null): PostOutcome => ({
    statusCode,
    error,
    durationMs: Date.now() - started,
  });
  const problem = urlProblem(url, options.allowPrivate);
  if (problem) return done(null, `the URL ${problem}`);
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  let pinned;
  try {
    pinned = await permittedAddress(host, options.allowPrivate);
  } catch (err) {
    return done(null, (err as Error).message);
  }
  const remaining = Math.max(1, options.timeoutMs - (Date.now() - started));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(statusCode, error));
    };
    const request = client.request(
      {
        protocol: target.protocol,
        hostname: host,
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        agent: false,
        lookup: pinnedLookup(pinned.address, pinned.family),
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The answer's body is not needed, but read to its end so that the status counts only once all came.
        response.resume();
        response.once('end', () => {
          finish(
            status,
            status >= 200 && status < 300
              ? null
              : status < 400 && status >= 300
                ? `HTTP ${status} (redirects are not followed)`
                : `HTTP ${status}`,
          );
          request.destroy();
        });
        response.once('error', (err) => finish(status, err.message));
      },
    );
    const timer = setTimeout(() => {
      finish(null, `no answer within ${options.timeoutMs} ms`);
      request.destroy();
    }, remaining);
    request.once('error', (err) => finish(null, err.message));
    request.end(body);
  });
}
