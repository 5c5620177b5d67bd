import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpOrigin } from '../../config';
import { createApp } from './app';
import { clientErrorHandler, connectHandler } from '../http/clientErrors';
import { pingSearch } from '../search/client';
import { searchWriteBlocks } from '../search/writeBlocks';
import { PROBE_TIMEOUT_MS } from '../metrics/probe';
import type { Services } from '../services/container';
import { pingMongo } from '../storage/mongo';
import { allRoutes } from '../api/routeTable';
import { describeListenError, PortUnavailable } from '../lib/ports';

export interface RunningServer {
  url: string;
  server: Server;
  /**
   * Stops accepting connections and waits for in-flight requests, at most `graceMs` (default: the
   * SHUTDOWN_GRACE_MS setting): then their connections are closed, so a slow client cannot hold
   * a deploy up.
   */
  close(graceMs?: number): Promise<void>;
}

/** Serves the API on `host:port` (port 0: any free port) over the given services. */
export async function startServer(services: Services, host: string, port: number): Promise<RunningServer> {
  const app = createApp({
    config: services.config,
    log: services.log,
    apiKeys: services.apiKeys,
    routes: allRoutes(services),
    health: {
      mongo: () => pingMongo(services.db),
      elasticsearch: () => pingSearch(services.search),
      searchWriteBlocks: () => searchWriteBlocks(services.search, services.config, PROBE_TIMEOUT_MS),
      sync: () => services.sync.backlog(),
    },
    metrics: services.metrics.observe({
      backlog: () => services.sync.backlog(),
      webhookQueue: () => services.webhooks.deliveries.depth(),
      mongo: () => pingMongo(services.db),
      elasticsearch: () => pingSearch(services.search),
    }),
  });
  const handle = app.callback();
  const server = await new Promise<Server>((resolve, reject) => {
    // Node answers an HTTP/1.1 request without Host with a bare 400: the app answers it in the envelope.
    // Koa's handler answers and logs its own errors, so its promise never rejects.
    const s = createServer({ requireHostHeader: false }, (req, res) => void handle(req, res)).listen(port, host, () =>
      resolve(s),
    );
    // Taken since the check at startup (src/app/apiProcess.ts): the same line naming PORT.
    s.once('error', (err: NodeJS.ErrnoException) =>
      reject(new PortUnavailable(describeListenError(err, host, port, 'PORT'))),
    );
  });
  server.keepAliveTimeout = 5_000;
  server.on('clientError', clientErrorHandler(services.config.defaultLanguage));
  server.on('connect', connectHandler(services.config.defaultLanguage));
  // While stopping, in-flight (and late keep-alive) requests are answered with `Connection: close`,
  // so their connections end with the response instead of idling until the keep-alive timeout.
  let closing = false;
  const inFlight = new Set<ServerResponse>();
  const closeAfterResponse = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) return closeAfterResponse(res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  const address = server.address() as AddressInfo;
  return {
    url: httpOrigin(host, address.port),
    server,
    close: (graceMs = services.config.http.shutdownGraceMs) =>
      new Promise<void>((resolve) => {
        closing = true;
        inFlight.forEach(closeAfterResponse);
        const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(deadline);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
