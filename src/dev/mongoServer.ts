import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { isAlive, launch, StartupFailed, stopPid, waitUntil, type ProcessHandle } from './managedProcess';

const STARTUP_TIMEOUT_MS = 30_000;
const REPLICA_SET = 'rs0';
/** jongodb prints this line once it listens, or the other one when it cannot (a port taken). */
const READY_LINE = 'JONGODB_URI=';
const FAILURE_LINE = 'JONGODB_START_FAILURE=';

export interface MongoInstance extends ProcessHandle {
  url: string;
}

function jongodbBinary(projectRoot: string): string {
  return path.join(projectRoot, 'node_modules', '@jongodb', 'memory-server-bin-linux-x64-gnu', 'bin', 'jongodb');
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What the process wrote to its log since `offset` (the log is appended to across starts). */
async function outputSince(logFile: string, offset: number): Promise<string> {
  return (await readFile(logFile, 'utf8').catch(() => '')).slice(offset);
}

/**
 * Starts jongodb, a MongoDB-wire-compatible in-memory server shipped on npm, as a single-node
 * replica set (so sessions and transactions behave as on the production replica set). Ready only
 * once this process says it listens and is still alive: another server answering on the port
 * (another copy's) is never taken for it.
 */
export async function startJongodb(options: {
  projectRoot: string;
  instanceDir: string;
  port: number;
  database: string;
  log: (line: string) => void;
}): Promise<MongoInstance> {
  const url = `mongodb://127.0.0.1:${options.port}/?replicaSet=${REPLICA_SET}`;
  const consoleLog = path.join(options.instanceDir, 'jongodb.log');
  const binary = jongodbBinary(options.projectRoot);
  if (!existsSync(binary)) {
    // An optional dependency: npm skips it on other platforms and with --omit=optional.
    throw new Error(`jongodb is not installed (${binary}): run "npm install" on Linux x64, or set MONGO_URL`);
  }
  const offset = (() => {
    try {
      return statSync(consoleLog).size;
    } catch {
      return 0;
    }
  })();
  options.log(`starting jongodb (MongoDB protocol) on 127.0.0.1:${options.port}…`);
  const handle = launch(
    binary,
    [
      '--host=127.0.0.1',
      `--port=${options.port}`,
      `--database=${options.database}`,
      '--topology-profile=singleNodeReplicaSet',
      `--replica-set-name=${REPLICA_SET}`,
    ],
    consoleLog,
  );
  const failure = async () => {
    const output = await outputSince(consoleLog, offset);
    const reason = output.split('\n').find((line) => line.startsWith(FAILURE_LINE));
    return `jongodb did not start on port ${options.port}: ${reason ? reason.slice(FAILURE_LINE.length) : output.trim() || 'it exited without a word'}`;
  };
  try {
    await waitUntil(
      async () => {
        const output = await outputSince(consoleLog, offset);
        if (output.includes(FAILURE_LINE) || !isAlive(handle.pid)) throw new StartupFailed();
        return output.includes(READY_LINE) && (await acceptsConnections(options.port)) && isAlive(handle.pid);
      },
      STARTUP_TIMEOUT_MS,
      failure,
    );
  } catch (err) {
    await stopPid(handle.pid);
    throw err;
  }
  return { ...handle, url };
}
