import net from 'node:net';
import { freePort } from '../../../src/dev/managedProcess';

type Mode = 'forward' | 'hang';

/**
 * A TCP proxy on a fixed local port that can be cut (port closed, connections destroyed: a
 * stopped server), made to hang (connections accepted, nothing answered: a frozen server) and
 * restored on the same port.
 */
export class FaultProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private mode: Mode = 'forward';

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: URL): Promise<FaultProxy> {
    const proxy = new FaultProxy(await freePort(), { host: target.hostname, port: Number(target.port) });
    await proxy.up();
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Forwards again on the same port; connections held by `hang` are dropped. */
  async up(): Promise<void> {
    this.mode = 'forward';
    this.destroyAll();
    if (this.server) return;
    const server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Closes the port and destroys every open connection. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.destroyAll();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Keeps accepting connections but never answers (the open ones are dropped first). */
  async hang(): Promise<void> {
    await this.up();
    this.mode = 'hang';
    this.destroyAll();
  }

  private destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private accept(client: net.Socket): void {
    this.track(client);
    if (this.mode === 'hang') return;
    const upstream = net.connect(this.target.port, this.target.host);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
