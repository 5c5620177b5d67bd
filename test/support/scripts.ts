import { execFile } from 'node:child_process';
import path from 'node:path';
import { testWorld } from './harness';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `scripts/<name>.ts` as `npm run` would (without npm's banner) against the test world's
 * database and indexes; `env` overrides (e.g. unreachable servers).
 */
export function runScript(name: string, args: string[], env: Record<string, string> = {}): Promise<ScriptResult> {
  const { config } = testWorld();
  const baseEnv = {
    PATH: process.env.PATH,
    MONGO_URL: config.mongo.url,
    MONGO_DATABASE: config.mongo.database,
    ELASTICSEARCH_URL: config.elasticsearch.url,
    INDEX_PREFIX: config.elasticsearch.indexPrefix,
    INDEX_REFRESH_INTERVAL: config.elasticsearch.refreshInterval,
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `scripts/${name}.ts`, ...args],
      { cwd: PROJECT_ROOT, env: { ...baseEnv, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
