import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { ApiKeyStore, ROLES, type ApiKeyRecord } from '../src/storage/apiKeys';
import { readRunningState } from '../src/dev/embeddedServices';
import type { Role } from '../src/domain/principal';
import { connectMongo } from '../src/storage/mongo';
import { parseArgsProblem } from '../src/tools/cli';
import { mongoUnreachable } from '../src/storage/mongo';
import { UnreachableError, UsageError } from '../src/indexer/opsError';
import { loadEmbeddedSettings } from '../config/embedded';

const PROJECT_ROOT = path.resolve(__dirname, '..');
const USAGE = `usage: npm run apikey -- create --role <${ROLES.join('|')}> --name <name> | list | revoke <id>`;

interface Command {
  run(keys: ApiKeyStore): Promise<void>;
}

function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { role: { type: 'string' }, name: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(`${parseArgsProblem((err as Error).message)}; ${USAGE}`);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const noOptions = (name: string) => {
    if (values.role !== undefined || values.name !== undefined)
      throw new UsageError(`"${name}" takes no --role or --name; ${USAGE}`);
  };
  switch (command) {
    case 'create': {
      if (rest.length > 0)
        throw new UsageError(`unexpected argument "${rest[0]}" (quote a name with spaces); ${USAGE}`);
      const role = values.role;
      const name = values.name?.trim();
      if (!role) throw new UsageError(`create needs --role (one of ${ROLES.join(', ')}); ${USAGE}`);
      if (!ROLES.includes(role as Role)) throw new UsageError(`unknown role "${role}": use one of ${ROLES.join(', ')}`);
      if (!name) throw new UsageError(`create needs --name, saying who or what uses the key; ${USAGE}`);
      return { run: (keys) => create(keys, role as Role, name) };
    }
    case 'list':
      noOptions('list');
      if (rest.length > 0) throw new UsageError(`list takes no arguments; ${USAGE}`);
      return { run: list };
    case 'revoke': {
      noOptions('revoke');
      if (rest.length !== 1)
        throw new UsageError(`revoke needs exactly one key ID (see "npm run apikey -- list"); ${USAGE}`);
      const id = rest[0]!;
      return { run: (keys) => revoke(keys, id) };
    }
    case undefined:
      throw new UsageError(`no command given; ${USAGE}`);
    default:
      throw new UsageError(`unknown command "${command}"; ${USAGE}`);
  }
}

async function create(keys: ApiKeyStore, role: Role, name: string): Promise<void> {
  const { key, record } = await keys.create(name, role);
  // The key alone on stdout, so `KEY=$(npm run -s apikey -- create ...)` captures just it.
  console.error(`created API key ${record.id} "${record.name}" (${record.role}, user ${record.userId});`);
  console.error('it is shown only now, store it safely:');
  console.log(key);
}

function describe(record: ApiKeyRecord): string {
  const status = record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active';
  return [
    record.id,
    record.role.padEnd(13),
    `user ${record.userId}`.padEnd(10),
    record.createdAt.toISOString(),
    status.padEnd(32),
    record.name,
  ].join('  ');
}

async function list(keys: ApiKeyStore): Promise<void> {
  const records = await keys.list();
  if (records.length === 0) {
    console.log('no API keys yet (create one with "npm run apikey -- create --role administrator --name NAME")');
    return;
  }
  for (const record of records) console.log(describe(record));
}

async function revoke(keys: ApiKeyStore, id: string): Promise<void> {
  if (!(await keys.revoke(id))) {
    throw new Error(`no active key with ID "${id}" (see "npm run apikey -- list")`);
  }
  console.log(`revoked API key ${id}`);
}

/** MONGO_URL, else the MongoDB-protocol server of `npm run services:start`. */
async function mongoUrl(configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const running = await readRunningState(PROJECT_ROOT, loadEmbeddedSettings());
  if (running) return running.mongo.url;
  throw new UnreachableError('no MongoDB to connect to: set MONGO_URL, or run "npm run services:start" first');
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const command = parseCommand(argv);
  const config = loadConfig();
  const url = await mongoUrl(config.mongo.url);
  let connection;
  try {
    connection = await connectMongo({ ...config.mongo, url });
  } catch (err) {
    throw new UnreachableError(mongoUnreachable(url, err as Error), { cause: err });
  }
  try {
    const keys = new ApiKeyStore(connection.db);
    await keys.ensureIndexes();
    await command.run(keys);
    return 0;
  } finally {
    await connection.client.close();
  }
}

/** Exits once stdout has drained: `process.exit` alone truncates a long listing sent to a pipe. */
function exitAfterOutput(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

main(process.argv.slice(2)).then(exitAfterOutput, (err: Error) => {
  console.error(`apikey: ${err.message}`);
  exitAfterOutput(
    err instanceof UsageError || err instanceof ConfigError ? 2 : err instanceof UnreachableError ? 3 : 1,
  );
});
