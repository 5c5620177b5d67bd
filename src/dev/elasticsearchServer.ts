import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, writeFile, chown } from 'node:fs/promises';
import path from 'node:path';
import {
  ELASTICSEARCH_BUILD_HASH,
  ELASTICSEARCH_VERSION,
  ensureElasticsearchDistribution,
} from './elasticsearchDistribution';
import { isAlive, launch, StartupFailed, stopPid, waitUntil, type ProcessHandle } from './managedProcess';

const SERVICE_USER = 'calendar-es';
const STARTUP_TIMEOUT_MS = 300_000;
const HEAP_OPTS = '-Xms512m -Xmx1g';

interface Account {
  uid: number;
  gid: number;
}

/** Elasticsearch refuses to run as root, so as root we run it as a dedicated system user. */
function serviceAccount(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(
      execFileSync('id', [flag, SERVICE_USER], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVICE_USER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

async function chownTree(dir: string, account: Account): Promise<void> {
  execFileSync('chown', ['-R', `${account.uid}:${account.gid}`, dir]);
  await chown(dir, account.uid, account.gid);
}

function settings(port: number, nodeName: string, dataDir: string, logsDir: string): string {
  return [
    'cluster.name: calendar-embedded',
    `node.name: ${nodeName}`,
    'network.host: 127.0.0.1',
    `http.port: ${port}`,
    'discovery.type: single-node',
    'xpack.security.enabled: false',
    'xpack.ml.enabled: false',
    'xpack.watcher.enabled: false',
    'ingest.geoip.downloader.enabled: false',
    'cluster.routing.allocation.disk.threshold_enabled: false',
    'action.destructive_requires_name: false',
    `path.data: ${dataDir}`,
    `path.logs: ${logsDir}`,
    '',
  ].join('\n');
}

/** The stock jvm.options writes GC logs and dumps relative to ES_HOME, which is read-only here. */
async function pointJvmFilesAt(confDir: string, dataDir: string, logsDir: string): Promise<void> {
  const file = path.join(confDir, 'jvm.options');
  const options = (await readFile(file, 'utf8'))
    .replaceAll('file=logs/', `file=${logsDir}/`)
    .replaceAll('-XX:ErrorFile=logs/', `-XX:ErrorFile=${logsDir}/`)
    .replaceAll('-XX:HeapDumpPath=data', `-XX:HeapDumpPath=${dataDir}`);
  await writeFile(file, options);
}

export interface ElasticsearchInstance extends ProcessHandle {
  url: string;
  /** Unique to this start: the server at `url` answering with it is this one, not another copy's. */
  nodeName: string;
}

/** Whether the server at `url` is the node started as `nodeName` (its `GET /` names it). */
export async function answersAs(url: string, nodeName: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok && ((await res.json()) as { name?: string }).name === nodeName;
  } catch {
    return false;
  }
}

/** Checks that the server at `url` is the exact build we verified, not something else on the port. */
export async function verifyElasticsearchBuild(url: string): Promise<void> {
  const info = (await (await fetch(url)).json()) as { version?: { number?: string; build_hash?: string } };
  if (info.version?.number !== ELASTICSEARCH_VERSION || info.version?.build_hash !== ELASTICSEARCH_BUILD_HASH) {
    throw new Error(
      `the server at ${url} reports Elasticsearch ${info.version?.number} (${info.version?.build_hash}), expected ${ELASTICSEARCH_VERSION} (${ELASTICSEARCH_BUILD_HASH})`,
    );
  }
}

export async function startElasticsearch(options: {
  projectRoot: string;
  cacheDir: string;
  instanceDir: string;
  port: number;
  log: (line: string) => void;
}): Promise<ElasticsearchInstance> {
  const home = await ensureElasticsearchDistribution(options.projectRoot, options.cacheDir, options.log);
  const confDir = path.join(options.instanceDir, 'config');
  const dataDir = path.join(options.instanceDir, 'data');
  const logsDir = path.join(options.instanceDir, 'logs');
  const tmpDir = path.join(options.instanceDir, 'tmp');
  await cp(path.join(home, 'config'), confDir, { recursive: true, force: false, errorOnExist: false });
  for (const dir of [dataDir, logsDir, tmpDir]) await mkdir(dir, { recursive: true });
  const nodeName = `calendar-es-${randomBytes(4).toString('hex')}`;
  await writeFile(path.join(confDir, 'elasticsearch.yml'), settings(options.port, nodeName, dataDir, logsDir));
  await pointJvmFilesAt(confDir, dataDir, logsDir);
  const account = serviceAccount();
  if (account) await chownTree(options.instanceDir, account);

  const url = `http://127.0.0.1:${options.port}`;
  const consoleLog = path.join(options.instanceDir, 'console.log');
  options.log(`starting Elasticsearch on ${url}…`);
  const handle = launch(path.join(home, 'bin', 'elasticsearch'), [], consoleLog, {
    cwd: options.instanceDir,
    env: {
      PATH: process.env.PATH,
      HOME: options.instanceDir,
      ES_PATH_CONF: confDir,
      ES_TMPDIR: tmpDir,
      ES_JAVA_OPTS: HEAP_OPTS,
    },
    ...(account ?? {}),
  });
  try {
    await waitUntil(
      async () => {
        if (!isAlive(handle.pid)) throw new StartupFailed();
        // Another copy's server on the port answers too: only this node counts.
        if (!(await answersAs(url, nodeName))) return false;
        const res = await fetch(`${url}/_cluster/health?wait_for_status=yellow&timeout=1s`);
        return res.ok && isAlive(handle.pid);
      },
      STARTUP_TIMEOUT_MS,
      async () => {
        const tail = (await readFile(consoleLog, 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
        return `Elasticsearch did not become ready on ${url}; last log lines:\n${tail}`;
      },
    );
    await verifyElasticsearchBuild(url);
  } catch (err) {
    await stopPid(handle.pid);
    throw err;
  }
  return { ...handle, url, nodeName };
}
