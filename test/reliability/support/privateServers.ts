import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { startElasticsearch, type ElasticsearchInstance } from '../../../src/dev/elasticsearchServer';
import { SERVICES_DIR } from '../../../src/dev/embeddedServices';
import { freePort } from '../../../src/dev/managedProcess';
import { startJongodb, type MongoInstance } from '../../../src/dev/mongoServer';
import { FaultProxy } from './faultProxy';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');

/** A scratch folder for one test's private servers, removed by `cleanup`. */
async function scratch(scope: string): Promise<string> {
  const dir = path.join(PROJECT_ROOT, SERVICES_DIR, `reliability-${scope}-${process.pid}-${Date.now().toString(36)}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

const log = (line: string) => {
  if (process.env.RELIABILITY_VERBOSE) console.log(`      [servers] ${line}`);
};

/** The servers are detached process groups: a test run that dies must not leave them behind. */
function killOnExit(pid: number): void {
  process.once('exit', () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  });
}

/** A private jongodb on a free port that a test may stop and start again on the same port (memory only). */
export class PrivateMongo {
  private instance: MongoInstance | undefined;
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(scope: string): Promise<PrivateMongo> {
    const mongo = new PrivateMongo(await freePort(), await scratch(scope));
    await mongo.up();
    return mongo;
  }

  get url(): string {
    return `mongodb://127.0.0.1:${this.port}/?replicaSet=rs0`;
  }

  get running(): boolean {
    return this.instance !== undefined;
  }

  async up(): Promise<void> {
    if (this.instance) return;
    this.instance = await startJongodb({
      projectRoot: PROJECT_ROOT,
      instanceDir: this.dir,
      port: this.port,
      database: 'calendar',
      log,
    });
    killOnExit(this.instance.pid);
  }

  /** Stops the server process (SIGTERM, then SIGKILL): connections drop, the port refuses. */
  async down(): Promise<void> {
    await this.instance?.stop();
    this.instance = undefined;
  }

  async cleanup(): Promise<void> {
    await this.down();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Something that serves Elasticsearch on a fixed URL and that a test can take down and bring back. */
export interface FaultyElasticsearch {
  readonly url: string;
  readonly description: string;
  /** The server is gone: connections refused, open ones dropped. */
  down(): Promise<void>;
  /** Back on the same port (and, for a real server, the same data). */
  up(): Promise<void>;
  /** Answers nothing: connections are accepted and then hang (only the proxy can do this). */
  hang?(): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * The light default: a TCP proxy in front of the shared Elasticsearch, taken down at the socket
 * level (listener closed, every connection destroyed), exactly what clients see of a stopped
 * process, in milliseconds instead of the minutes a JVM restart takes on a small machine.
 */
export async function proxiedElasticsearch(targetUrl: string): Promise<FaultyElasticsearch> {
  const proxy = await FaultProxy.start(new URL(targetUrl));
  return {
    url: proxy.url,
    description: `a TCP proxy to ${targetUrl}, cut and restored`,
    down: () => proxy.down(),
    up: () => proxy.up(),
    hang: () => proxy.hang(),
    cleanup: () => proxy.down(),
  };
}

/** The heavy variant (RELIABILITY_REAL_ES=1): a private Elasticsearch process, stopped and restarted on its port and data. */
export async function privateElasticsearch(scope: string): Promise<FaultyElasticsearch> {
  const dir = await scratch(scope);
  const port = await freePort();
  const start = () =>
    startElasticsearch({
      projectRoot: PROJECT_ROOT,
      cacheDir: path.join(PROJECT_ROOT, SERVICES_DIR, 'cache'),
      instanceDir: path.join(dir, 'elasticsearch'),
      port,
      log,
    });
  let instance: ElasticsearchInstance | undefined = await start();
  killOnExit(instance.pid);
  return {
    url: `http://127.0.0.1:${port}`,
    description: `a private Elasticsearch process on port ${port}, stopped and restarted on its data`,
    down: async () => {
      await instance?.stop();
      instance = undefined;
    },
    up: async () => {
      if (instance) return;
      instance = await start();
      killOnExit(instance.pid);
    },
    cleanup: async () => {
      await instance?.stop();
      instance = undefined;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
