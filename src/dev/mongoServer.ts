import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { launch, stopPid, waitUntil, type ProcessHandle } from './managedProcess';

const STARTUP_TIMEOUT_MS = 30_000;
const REPLICA_SET = 'rs0';

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

/**
 * Starts jongodb, a MongoDB-wire-compatible in-memory server shipped on npm, as a single-node
 * replica set (so sessions and transactions behave as on the production replica set).
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
  try {
    await waitUntil(
      () => acceptsConnections(options.port),
      STARTUP_TIMEOUT_MS,
      async () =>
        `jongodb did not accept connections on port ${options.port}: ${await readFile(consoleLog, 'utf8').catch(() => '')}`,
    );
  } catch (err) {
    await stopPid(handle.pid);
    throw err;
  }
  return { ...handle, url };
}
