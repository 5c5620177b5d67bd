import { expect } from 'chai';
import { EmbeddedByMark, MAX_KEPT_EMBEDDED, type Embeddable } from '../../../src/services/views/embeddedByMark';

/** A presenter that counts what it is asked for and names each body after the call that made it. */
function presenter(held: number[] = []) {
  const asked: number[][] = [];
  const present = async (ids: number[]) => {
    asked.push(ids);
    const call = asked.length;
    return new Map<number, Embeddable>(
      ids.map((id) => [id, { body: id < 0 ? null : { id, call }, keep: !held.includes(id) }]),
    );
  };
  return { asked, present };
}

describe('services/EmbeddedByMark: embedded records kept per change mark', () => {
  it('presents each record once while the mark stays, again once it moves', async () => {
    const kept = new EmbeddedByMark();
    const { asked, present } = presenter();
    expect([...(await kept.get('venue', [1, 2], 'en', 3, present)).values()]).to.deep.equal([
      { id: 1, call: 1 },
      { id: 2, call: 1 },
    ]);
    expect((await kept.get('venue', [2, 1], 'en', 3, present)).get(1)).to.deep.equal({ id: 1, call: 1 });
    expect(asked).to.deep.equal([[1, 2]]);
    expect((await kept.get('venue', [1], 'en', 4, present)).get(1)).to.deep.equal({ id: 1, call: 2 });
    expect(asked).to.deep.equal([[1, 2], [1]]);
  });

  it('keeps languages and kinds apart, and remembers a record that is not there', async () => {
    const kept = new EmbeddedByMark();
    const { asked, present } = presenter();
    await kept.get('venue', [1, -5], 'en', 1, present);
    await kept.get('venue', [1], 'fr', 1, present);
    await kept.get('organizer', [1], 'en', 1, present);
    const again = await kept.get('venue', [1, -5], 'en', 1, present);
    expect([...again.keys()]).to.deep.equal([1]);
    expect(asked).to.deep.equal([[1, -5], [1], [1]]);
  });

  it('keeps nothing for a read holding an older mark, nor a record a write holds', async () => {
    const kept = new EmbeddedByMark();
    const { asked, present } = presenter([7]);
    await kept.get('tag', [1], 'en', 5, present);
    // Read before a write this process has seen since: presented afresh, the kept ones stay.
    expect((await kept.get('tag', [1], 'en', 4, present)).get(1)).to.deep.equal({ id: 1, call: 2 });
    expect((await kept.get('tag', [1], 'en', 5, present)).get(1)).to.deep.equal({ id: 1, call: 1 });
    await kept.get('tag', [7], 'en', 5, present);
    await kept.get('tag', [7], 'en', 5, present);
    expect(asked).to.deep.equal([[1], [1], [7], [7]]);
  });

  it('drops what it keeps past its bound rather than growing', async () => {
    const kept = new EmbeddedByMark();
    const { asked, present } = presenter();
    const many = Array.from({ length: MAX_KEPT_EMBEDDED }, (_, i) => i + 1);
    await kept.get('category', many, 'en', 1, present);
    await kept.get('category', [MAX_KEPT_EMBEDDED + 1], 'en', 1, present);
    await kept.get('category', [1], 'en', 1, present);
    expect(asked.map((ids) => ids.length)).to.deep.equal([MAX_KEPT_EMBEDDED, 1, 1]);
  });
});
