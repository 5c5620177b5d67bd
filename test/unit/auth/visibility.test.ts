import { expect } from 'chai';
import { blankProtected, listedEventFor, ownershipOf, visibleEmbeds } from '../../../src/storage/recordAccess';
import type { Principal } from '../../../src/domain/principal';

const anonymous: Principal = { keyId: null, userId: 0, role: null };
const author: Principal = { keyId: 'a', userId: 7, role: 'author' };
const editor: Principal = { keyId: 'e', userId: 8, role: 'editor' };

const venue = (id: number, status: string, owner = 9) => ({ id, venue: `Venue ${id}`, status, author: owner });
const organizer = (id: number, status: string, owner = 9) => ({
  id,
  organizer: `Organizer ${id}`,
  status,
  author: owner,
});

describe('auth/visibility', () => {
  const event = {
    id: 1,
    status: 'publish',
    author: 9,
    description: 'secret',
    excerpt: 'secret',
    cost: '$10',
    cost_details: { currency_symbol: '$', currency_position: 'prefix', values: ['10'] },
    website: 'https://example.org',
    venue: [venue(2, 'publish'), venue(3, 'draft'), venue(4, 'draft', 7)],
    organizer: [organizer(5, 'pending'), organizer(6, 'publish')],
  };

  it('reads status and author from documents and records (terms: public)', () => {
    expect(ownershipOf({ status: 'draft', author: 3 })).to.deep.equal({ status: 'draft', author: 3 });
    expect(ownershipOf({ name: 'Jazz' })).to.deep.equal({ status: 'publish', author: 0 });
  });

  it('embeds only the links the caller may read, keeping the venue shape (object for one, [] for none)', () => {
    expect(visibleEmbeds(event, anonymous)).to.deep.include({
      venue: venue(2, 'publish'),
      organizer: [organizer(6, 'publish')],
    });
    expect(visibleEmbeds(event, author)).to.deep.include({ venue: [venue(2, 'publish'), venue(4, 'draft', 7)] });
    expect(visibleEmbeds(event, editor)).to.deep.include({ venue: event.venue, organizer: event.organizer });
    expect(visibleEmbeds({ ...event, venue: venue(3, 'draft') }, anonymous).venue).to.deep.equal([]);
    expect(visibleEmbeds({ ...event, venue: [] }, anonymous).venue).to.deep.equal([]);
  });

  it('blanks protected fields in lists unless the caller bypasses the password', () => {
    const blank = blankProtected(event);
    expect(blank).to.deep.include({ description: '', excerpt: '', cost: '', website: '', venue: [], organizer: [] });
    expect(blank.cost_details).to.deep.equal({ currency_symbol: '', currency_position: 'prefix', values: [] });
    expect(listedEventFor(event, true, anonymous)).to.deep.equal(blank);
    expect(listedEventFor(event, true, { ...author, userId: 9 })).to.deep.include({ description: 'secret' });
    expect(listedEventFor(event, true, editor)).to.deep.include({ description: 'secret', venue: event.venue });
    expect(listedEventFor(event, false, anonymous)).to.deep.include({
      description: 'secret',
      venue: venue(2, 'publish'),
    });
  });
});
