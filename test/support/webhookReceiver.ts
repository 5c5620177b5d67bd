import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One POST the receiver got, its signature checked with the `standardwebhooks` package (not our code). */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; subscription_id: number; event_id: number; occurred_at: string; record: any };
  /** The status the receiver answered. */
  answered: number;
  signatureValid: boolean;
}

/**
 * A webhook receiver on 127.0.0.1: records every request, answers `status()` (a function, so a
 * test can fail some attempts) after `delayMs`, and counts its open connections.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  status: (request: Omit<Received, 'answered'>) => number = () => 204;
  delayMs = 0;
  secret: string | null = null;
  openConnections = 0;
  maxOpenConnections = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(public port = 0) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Deliveries answered 2xx, in arrival order. */
  get accepted(): Received[] {
    return this.received.filter((r) => r.answered >= 200 && r.answered < 300);
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let signatureValid = false;
        if (this.secret) {
          try {
            new Webhook(this.secret).verify(body, {
              'webhook-id': String(req.headers['webhook-id']),
              'webhook-timestamp': String(req.headers['webhook-timestamp']),
              'webhook-signature': String(req.headers['webhook-signature']),
            });
            signatureValid = true;
          } catch {
            signatureValid = false;
          }
        }
        const request = { headers: req.headers, body, json: JSON.parse(body || 'null'), signatureValid };
        const answered = this.status(request);
        const respond = () => {
          this.received.push({ ...request, answered });
          res.writeHead(answered).end();
        };
        if (this.delayMs > 0) setTimeout(respond, this.delayMs);
        else respond();
      });
    });
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      this.openConnections++;
      this.maxOpenConnections = Math.max(this.maxOpenConnections, this.openConnections);
      socket.once('close', () => {
        this.sockets.delete(socket);
        this.openConnections--;
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops listening and drops every connection: the next attempts are refused. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
