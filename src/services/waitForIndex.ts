import { setTimeout as sleep } from 'node:timers/promises';
import { LANGUAGES } from '../../config';
import type { Services } from './container';
import type { RecordKind } from '../domain/kinds';
import { aliasName } from '../search/indexNames';

const POLL_MS = 20;

/** Kinds whose index documents are refreshed when a record of `kind` changes. */
const DEPENDENT_KINDS: Record<RecordKind, RecordKind[]> = {
  event: ['venue', 'organizer', 'category', 'tag'],
  venue: ['event'],
  organizer: ['event'],
  category: ['event'],
  tag: ['event'],
};

async function until(deadline: number, done: () => Promise<boolean>): Promise<boolean> {
  while (!(await done())) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

/**
 * Waits until the write to record `kind`/`id` is searchable: its current sync version indexed,
 * then the dependent records the worker marked dirty on the way (events of a renamed venue, the
 * terms of a changed event...), then a refresh of their indexes. Resolves to false after
 * `timeoutMs` (by default WAIT_FOR_INDEX_MS).
 */
export async function waitUntilSearchable(
  services: Services,
  kind: RecordKind,
  id: number,
  timeoutMs = services.config.sync.waitForIndexMs,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const { version: target, indexedVersion } = await services.sync.versionsOf(kind, id);
  const indexed =
    indexedVersion >= target ||
    (await until(deadline, async () => (await services.sync.versionsOf(kind, id)).indexedVersion >= target));
  if (!indexed) return false;
  const markedBefore = new Date();
  const dependentsIndexed = await until(
    deadline,
    async () => !(await services.sync.waitingSince(DEPENDENT_KINDS[kind], markedBefore)),
  );
  if (!dependentsIndexed) return false;
  // Only the indexes the write may have changed: `${prefix}-*` would also refresh the other kinds',
  // and those of another deployment whose prefix starts with this one.
  const aliases = [kind, ...DEPENDENT_KINDS[kind]].flatMap((k) =>
    LANGUAGES.map((lang) => aliasName(services.config, k, lang)),
  );
  await services.search.indices.refresh({ index: aliases });
  return true;
}
