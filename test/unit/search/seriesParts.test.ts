import { expect } from 'chai';
import { seriesParts, SERIES_PER_BATCH } from '../../../src/indexer/batchDocuments';
import type { StoredRecord } from '../../../src/storage/storedRecord';
import type { EventDoc } from '../../../src/storage/stores';
import type { ClaimedEntry } from '../../../src/storage/syncQueue';
import type { RecordKind } from '../../../src/domain/kinds';

const entry = (kind: RecordKind, id: number): ClaimedEntry => ({ key: `${kind}:${id}`, kind, id, version: 2 });
const event = (id: number, recurrence?: string[]) =>
  ({ id, originalLang: 'en', docs: { en: { id, lang: 'en', recurrence } } }) as unknown as StoredRecord<EventDoc>;

describe('indexer/batchDocuments: series in parts', () => {
  it('keeps a batch whole with up to SERIES_PER_BATCH series', () => {
    const claimed = [entry('event', 1), entry('venue', 1), ...[2, 3, 4, 5, 6].map((id) => entry('event', id))];
    const records = new Map([1, 2, 3, 4, 5, 6].map((id) => [id, event(id, id > 1 ? ['RRULE:FREQ=DAILY'] : undefined)]));
    expect(SERIES_PER_BATCH).to.equal(5);
    expect(seriesParts(claimed, records)).to.deep.equal([claimed]);
  });

  it('puts every other entry and the first SERIES_PER_BATCH series first, then the others by SERIES_PER_BATCH', () => {
    const ids = Array.from({ length: 24 }, (_, i) => i + 1);
    // Odd IDs are series; 24 is gone from the database (a deleted record is indexed as a delete).
    const records = new Map(ids.slice(0, -1).map((id) => [id, event(id, id % 2 ? ['RRULE:FREQ=DAILY'] : [])]));
    const claimed = [entry('tag', 3), ...ids.map((id) => entry('event', id))];
    const [now, ...later] = seriesParts(claimed, records);
    expect(later.map((part) => part.map((e) => e.id))).to.deep.equal([
      [11, 13, 15, 17, 19],
      [21, 23],
    ]);
    expect(now!.map((e) => e.key)).to.deep.equal(
      claimed.filter((e) => e.kind !== 'event' || e.id < 11 || e.id % 2 === 0).map((e) => e.key),
    );
  });
});
