import { expect } from 'chai';
import { dependentsToMark, type Dependents } from '../../../src/storage/dependents';
import type { StoredRecord } from '../../../src/storage/storedRecord';
import type { EventDoc } from '../../../src/storage/stores';

const DEPENDENTS: Dependents<EventDoc> = {
  links: [
    ['venue', 'venues'],
    ['tag', 'tags'],
  ],
  watched: ['status', 'end'],
};

function event(fields: Partial<EventDoc>): StoredRecord<EventDoc> {
  const doc = {
    id: 1,
    lang: 'en',
    originalLang: 'en',
    status: 'publish',
    end: new Date(0),
    venues: [],
    tags: [],
    ...fields,
  };
  return { id: 1, originalLang: 'en', docs: { en: doc as unknown as EventDoc } };
}

describe('storage/dependents', () => {
  it('marks the records linked before and after a write that changed links or watched fields', () => {
    const before = event({ venues: [1], tags: [5, 6] });
    expect(dependentsToMark(DEPENDENTS, before, event({ venues: [2], tags: [6] }))).to.deep.equal([
      ['venue', [1, 2]],
      ['tag', [5, 6]],
    ]);
    expect(dependentsToMark(DEPENDENTS, before, event({ venues: [1], tags: [5, 6], status: 'draft' }))).to.deep.equal([
      ['venue', [1]],
      ['tag', [5, 6]],
    ]);
    expect(dependentsToMark(DEPENDENTS, before, event({ venues: [1], tags: [5, 6], end: new Date(1) }))).to.have.length(
      2,
    );
  });

  it('marks nothing when only other fields changed, or for a kind without dependents', () => {
    const before = event({ venues: [1], tags: [5] });
    expect(dependentsToMark(DEPENDENTS, before, event({ venues: [1], tags: [5], title: 'New' }))).to.deep.equal([]);
    expect(dependentsToMark(undefined, before, event({ venues: [2] }))).to.deep.equal([]);
  });

  it('marks every record a deleted one linked', () => {
    expect(dependentsToMark(DEPENDENTS, event({ venues: [3], tags: [7] }), null)).to.deep.equal([
      ['venue', [3]],
      ['tag', [7]],
    ]);
  });
});
