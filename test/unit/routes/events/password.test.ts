import { expect } from 'chai';
import { hashEventPassword, verifyEventPassword } from '../../../../src/domain/eventPassword';

describe('routes/events/password', () => {
  it('stores a salted hash and matches only the right password, also once a right one is remembered', async () => {
    const stored = await hashEventPassword('open sesame');
    expect(stored).to.match(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(stored).not.to.include('sesame');
    expect(await verifyEventPassword('open sesame', stored)).to.equal(true);
    expect(await verifyEventPassword('open sesame', stored), 'remembered').to.equal(true);
    for (const wrong of ['open sesam', 'Open sesame', 'open sesame ', ''])
      expect(await verifyEventPassword(wrong, stored), wrong).to.equal(false);
  });

  it('forgets a remembered password when the event gets another', async () => {
    const before = await hashEventPassword('first');
    expect(await verifyEventPassword('first', before)).to.equal(true);
    const after = await hashEventPassword('second');
    expect(await verifyEventPassword('first', after)).to.equal(false);
    expect(await verifyEventPassword('second', after)).to.equal(true);
    // Two events with one password: each hash is salted, each is checked on its own.
    expect(await verifyEventPassword('first', await hashEventPassword('first'))).to.equal(true);
  });

  it('refuses a malformed stored hash', async () => {
    for (const stored of ['', 'nocolon', 'abcd:', ':abcd'])
      expect(await verifyEventPassword('x', stored)).to.equal(false);
  });
});
