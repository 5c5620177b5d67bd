import { ExpiredTokenError } from '../domain/errors';
import type { Services } from '../services/container';
import { tokenSecretOf } from '../storage/tokenSecret';
import { Joi } from './params';
import { issueToken, openToken, tokenKind } from './tokens';

/**
 * Exports and walks read the search index, which follows MongoDB within a second (CONTRACT 8)
 * and shows a change once refreshed: the position they give starts this long before the oldest
 * change the worker has not indexed yet, so that every change the snapshot may lack comes after it.
 */
const SNAPSHOT_MARGIN_MS = 5_000;
/** Sent with an export and a walk's first page: where to follow `/changes` from once the copy is made. */
export const CHANGES_SINCE_HEADER = 'X-Changes-Since';

/** A position in the change log: its sequence number, and when it was handed out (ms). */
interface Position {
  seq: number;
  at: number;
}

export const CHANGES_TOKEN = tokenKind<Position>({
  purpose: 'changes-since',
  param: 'since',
  remedy: 'send next_since as given',
  schema: Joi.object<Position>({
    seq: Joi.number().integer().min(0).unsafe().required(),
    at: Joi.number().required(),
  }),
});

export async function changesToken(services: Services, seq: number): Promise<string> {
  const secret = await tokenSecretOf(services.db, services.config.integration.tokenSecret);
  return issueToken(secret, CHANGES_TOKEN, { seq, at: Date.now() });
}

/**
 * The sequence number `token` stands for (0 without one). Not a token this API gave: 400 naming
 * `since`. Older than CHANGES_RETENTION, or before changes pruned since: 410 `changes-token-expired`.
 */
export async function readChangesToken(services: Services, token: string | undefined): Promise<number> {
  if (token === undefined || token === '') return 0;
  const { changes } = services.sync;
  const [secret, prunedThrough] = await Promise.all([
    tokenSecretOf(services.db, services.config.integration.tokenSecret),
    changes.prunedThrough(),
  ]);
  const { seq, at } = openToken(secret, token, CHANGES_TOKEN);
  if (at < Date.now() - services.config.integration.changesRetentionMs || seq < prunedThrough) {
    throw new ExpiredTokenError(
      'changes-token-expired',
      'Changes after this token are no longer kept (CHANGES_RETENTION): copy the records again with an export, then follow /changes from the X-Changes-Since it gives.',
    );
  }
  return seq;
}

/** The `/changes` token to follow from once a copy made from a snapshot opened now is complete. */
export async function changesTokenForSnapshot(services: Services): Promise<string> {
  const now = Date.now();
  const oldestPending = (await services.sync.oldestPendingAt())?.getTime() ?? now;
  const cutoff = new Date(Math.min(now, oldestPending) - SNAPSHOT_MARGIN_MS);
  return changesToken(services, await services.sync.changes.positionBefore(cutoff));
}
