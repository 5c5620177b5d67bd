import type { Principal } from '../http/types';
import type { RecordKind } from '../errors';
import { ForbiddenError } from '../errors';
import type { Status } from '../storage/stores';

export const ALL_STATUSES: Status[] = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];

/** Statuses `principal` may read. Anonymous callers see published records only (CONTRACT part 6). */
export function readableStatuses(principal: Principal): Status[] {
  return principal.keyId ? ALL_STATUSES : ['publish'];
}

/** Throws the 403 of CONTRACT part 6 when `principal` may not read a record in `status`. */
export function assertReadable(kind: RecordKind, principal: Principal, status: Status, id: number): void {
  if (readableStatuses(principal).includes(status)) return;
  if (status === 'trash') {
    throw new ForbiddenError(`${kind}-no-longer-available`, `The ${kind} with ID ${id} has been deleted.`);
  }
  throw new ForbiddenError(`${kind}-not-accessible`, `The ${kind} with ID ${id} is not accessible.`);
}
