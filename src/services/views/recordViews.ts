import type { Language } from '../../../config';
import type { Services } from '../container';
import type { StoredRecord } from '../../storage/storedRecord';
import { viewVenues } from './venueView';
import { viewEvents } from './eventView';
import { viewOrganizers } from './organizerView';
import { viewCategories, viewTags } from './termView';
import type { RecordKind } from '../../domain/kinds';
import type { ChangeMark } from '../../storage/changeMarks';

/**
 * Turns stored records into API records in `lang`, loading what they embed (an event's venue,
 * organizers and terms). Used by single reads and by the search mapper, so lists and reads
 * share one shape (lists omit single-read-only fields such as `json_ld`).
 */
export type RecordView = (
  services: Services,
  records: StoredRecord<any>[],
  lang: Language,
  options?: ViewOptions,
) => Promise<Record<string, unknown>[]>;

export interface ViewOptions {
  /**
   * Where terms' published-event counts come from: 'exact' (default: an aggregation over the
   * events); 'index' (the counts lists show, one realtime multi-get: current only while no change
   * waits for the worker, see src/services/queries/indexedTermCounts.ts); 'index-now' (the same, read
   * now: not shared with other reads of the last moment); 'searchable-index' (the same as
   * of the index's last refresh, which spares it a refresh while the worker writes).
   */
  counts?: 'exact' | 'index' | 'index-now' | 'searchable-index';
  /**
   * `counts` for the terms the records embed: 'exact' (default); 'index-if-current' (single
   * reads: 'index' while no change waits for the worker, exact otherwise); 'searchable-index'
   * (index documents: lists replace embedded counts with the term index's when they serve them,
   * see src/services/queries/termCounts.ts, so these are as good and cost no pass over the events).
   */
  embeddedCounts?: 'exact' | 'index-if-current' | 'searchable-index';
  /**
   * With `embeddedCounts: 'index-if-current'` (single reads): the change marks of the kinds the
   * records embed, read from the database just before. Embedded records this process presented at
   * the same marks are not read or presented again (embeddedByMark.ts). Without them, every
   * embedded record is read.
   */
  marks?: ReadonlyMap<RecordKind, ChangeMark>;
}

const VIEWS: Record<RecordKind, RecordView> = {
  venue: viewVenues,
  event: viewEvents,
  organizer: viewOrganizers,
  category: viewCategories,
  tag: viewTags,
};

export function viewOf(kind: RecordKind): RecordView {
  return VIEWS[kind];
}
