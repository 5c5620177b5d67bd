import net from 'node:net';

/**
 * Tries to listen on `host:port` and lets go at once: the error a server would meet there, or
 * undefined when it is free. Checked before anything slow starts, so a taken port fails fast.
 */
export function listenError(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/** One line naming the setting that chose the address, and what to do. */
export function describeListenError(err: NodeJS.ErrnoException, host: string, port: number, setting: string): string {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${port} (${setting}) is taken by another process: set ${setting} to a free port, or stop what listens on ${where}`;
    case 'EACCES':
      return `port ${port} (${setting}) needs privileges this process lacks: set ${setting} to a port above 1023`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: no network interface has that address (HOST)`;
    default:
      return `cannot listen on ${where} (${setting}): ${err.message}`;
  }
}

/** Throws an Error with `describeListenError`'s line when `host:port` cannot be listened on. */
export async function assertCanListen(host: string, port: number, setting: string): Promise<void> {
  const err = await listenError(host, port);
  if (err) throw new PortUnavailable(describeListenError(err, host, port, setting));
}

export class PortUnavailable extends Error {
  override name = 'PortUnavailable';
}
