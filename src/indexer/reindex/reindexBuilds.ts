/**
 * The new indexes one reindex run builds for a kind (one per language): planning them beside
 * the live aliases, creating them, clearing what earlier runs left, and undoing this run's own.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Db } from 'mongodb';
import type { Config, Language } from '../../../config/index';
import type { RecordKind } from '../../domain/kinds';
import * as admin from './indexAdmin';
import { RebuildRegistration } from './rebuildRegistration';

export interface Build {
  state: admin.AliasState;
  index: string;
  writeAlias: string;
  /** Whether this run created `index` (and may delete it). */
  created?: boolean;
}

/** The next versioned index and its write alias behind each language's alias of `kind`. */
export async function planBuilds(
  client: Client,
  config: Config,
  kind: RecordKind,
  langs: readonly Language[],
): Promise<Build[]> {
  const states = await Promise.all(langs.map((lang) => admin.readAliasState(client, config, kind, lang)));
  return states.map((state) => ({
    state,
    index: admin.nextIndexName(config, state),
    writeAlias: admin.rebuildAlias(state.alias),
  }));
}

/**
 * Creates every build index with its write alias and the database's identity, and registers them
 * for the sync worker.
 */
export async function createBuilds(
  client: Client,
  db: Db,
  kind: RecordKind,
  builds: Build[],
  run: { id: string; instance: string },
): Promise<RebuildRegistration> {
  // Settled, not all: a failure must not leave a creation running past the cleanup.
  const created = await Promise.allSettled(
    builds.map(async (build) => {
      const { index, writeAlias } = build;
      await admin.createBuildIndex(client, { kind, lang: build.state.lang, index, writeAlias, instance: run.instance });
      build.created = true;
    }),
  );
  const failed = created.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return RebuildRegistration.register(
    db,
    builds.map((b) => ({
      _id: b.writeAlias,
      alias: b.state.alias,
      index: b.index,
      kind,
      lang: b.state.lang,
      runId: run.id,
    })),
  );
}

/** Registrations and half-built indexes of earlier, interrupted runs. */
export async function clearLeftovers(
  client: Client,
  db: Db,
  builds: Build[],
  say: (line: string) => void,
): Promise<void> {
  const clearIndexes = async (build: Build) => {
    await admin.removeWriteAlias(client, build.writeAlias);
    if (build.state.leftovers.length > 0) {
      say(`deleting ${build.state.leftovers.join(', ')}, left half-built by an earlier run`);
      await admin.deleteIndexes(client, build.state.leftovers);
    }
  };
  await Promise.all([
    RebuildRegistration.clear(
      db,
      builds.map((b) => b.state.alias),
    ),
    ...builds.map(clearIndexes),
  ]);
}

/**
 * Undoes a rebuild that did not swap, touching only what this run made (its registration, its
 * index and the write alias on it): a run that stalled past its lease must not undo the run that
 * took over. Never deletes an index an alias serves from.
 */
export async function abandonBuilds(
  client: Client,
  builds: Build[],
  registration: RebuildRegistration | undefined,
): Promise<void> {
  await registration?.release();
  for (const build of builds.filter((b) => b.created)) {
    await admin.removeWriteAlias(client, build.writeAlias, build.index);
    const live = await admin.indexesBehind(client, build.state.alias);
    if (!live.includes(build.index)) await admin.deleteIndexes(client, [build.index]);
  }
}
