import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type SpawnOptions } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import net from 'node:net';

export interface ProcessHandle {
  pid: number;
  stop(): Promise<void>;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Alive and running a program whose command line mentions `program` (where /proc tells): a
 * recorded pid that another program reuses since (after a reboot) is not one of ours.
 */
export function isRunning(pid: number, program: string): boolean {
  if (!isAlive(pid)) return false;
  let command: string;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return true;
  }
  return command.includes(program);
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
export async function stopPid(pid: number, graceMs = 15_000): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      // Negative pid: the whole process group (launcher scripts fork the real server).
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  if (!isAlive(pid)) return;
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) signal('SIGKILL');
  while (isAlive(pid)) await sleep(50);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Processes launched and not stopped yet, to be stopped together (an exit during startup). */
export class ProcessGroup {
  private readonly handles = new Set<ProcessHandle>();

  track(pid: number): ProcessHandle {
    const handle = { pid, stop: () => stopPid(pid).finally(() => this.handles.delete(handle)) };
    this.handles.add(handle);
    return handle;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.handles].map((handle) => handle.stop()));
  }
}

/** The servers this process launched (unless given another group). */
const launched = new ProcessGroup();

/**
 * Starts a server process in its own process group with output sent to `logFile`, so it can
 * outlive this process (services:start) or be stopped as a group.
 */
export function launch(
  command: string,
  args: string[],
  logFile: string,
  options: Pick<SpawnOptions, 'env' | 'cwd' | 'uid' | 'gid'> & { group?: ProcessGroup } = {},
): ProcessHandle {
  const { group = launched, ...spawnOptions } = options;
  const out = openSync(logFile, 'a');
  const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  return group.track(child.pid);
}

/** Stops every server this process launched and has not stopped: an exit during startup. */
export function stopLaunched(): Promise<void> {
  return launched.stopAll();
}

/** Thrown by a readiness probe when the process it waits for has already exited. */
export class StartupFailed extends Error {
  override name = 'StartupFailed';
}

/**
 * Polls `probe` until it resolves true, failing with `describeFailure()` when the deadline passes
 * or the probe throws StartupFailed.
 */
export async function waitUntil(
  probe: () => Promise<boolean>,
  timeoutMs: number,
  describeFailure: () => Promise<string>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = await probe()
      .catch((err: unknown) => {
        if (err instanceof StartupFailed) throw err;
        return false;
      })
      .catch(() => undefined);
    if (ready === undefined) break;
    if (ready) return;
    await sleep(250);
  }
  throw new Error(await describeFailure());
}
