import { execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { testWorld } from './harness';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

function scriptEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { config } = testWorld();
  return {
    PATH: process.env.PATH,
    MONGO_URL: config.mongo.url,
    MONGO_DATABASE: config.mongo.database,
    ELASTICSEARCH_URL: config.elasticsearch.url,
    INDEX_PREFIX: config.elasticsearch.indexPrefix,
    INDEX_REFRESH_INTERVAL: config.elasticsearch.refreshInterval,
    // Index documents carry links: the scripts must build them as the test API does.
    PUBLIC_API_URL: config.apiUrl,
    SITE_URL: config.siteUrl,
    ...env,
  };
}

/**
 * Starts `scripts/<name>.ts` as `npm run` would (without npm's banner) against the test world's
 * database and indexes; `env` overrides (e.g. unreachable servers).
 */
export function startScript(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<ScriptResult> } {
  let child!: ChildProcess;
  const done = new Promise<ScriptResult>((resolve) => {
    child = execFile(
      process.execPath,
      ['--import', 'tsx', `scripts/${name}.ts`, ...args],
      { cwd: PROJECT_ROOT, env: scriptEnv(env), timeout: 120_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
  return { child, done };
}

export function runScript(name: string, args: string[], env: Record<string, string> = {}): Promise<ScriptResult> {
  return startScript(name, args, env).done;
}
