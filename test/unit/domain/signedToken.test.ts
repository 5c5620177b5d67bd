import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { openSignedToken, signToken } from '../../../src/domain/signedToken';

const SECRET = 'a'.repeat(32);

describe('domain/signedToken', () => {
  it('opens what it signed, for the same purpose and secret only', () => {
    const token = signToken(SECRET, 'cursor', { seq: 42, list: 'events' });
    expect(openSignedToken(SECRET, 'cursor', token)).to.deep.equal({ seq: 42, list: 'events' });
    expect(openSignedToken(SECRET, 'changes', token)).to.equal(null);
    expect(openSignedToken('b'.repeat(32), 'cursor', token)).to.equal(null);
  });

  it('is an HMAC-SHA-256 of the purpose and the base64url body (checked with node:crypto directly)', () => {
    const token = signToken(SECRET, 'p', { a: 1 });
    const [body, mac] = token.split('.');
    expect(Buffer.from(body!, 'base64url').toString()).to.equal('{"a":1}');
    expect(mac).to.equal(createHmac('sha256', SECRET).update(`p\n${body}`).digest('base64url'));
  });

  it('refuses any change, truncation or garbage', () => {
    const token = signToken(SECRET, 'p', { seq: 1 });
    const [body, mac] = token.split('.');
    const other = Buffer.from('{"seq":2}').toString('base64url');
    for (const bad of [`${other}.${mac}`, `${body}.${mac!.slice(1)}`, body!, '', '.', 'x.y', `${body}.`, `.${mac}`]) {
      expect(openSignedToken(SECRET, 'p', bad), bad).to.equal(null);
    }
    const notObject = Buffer.from('[1]').toString('base64url');
    const signedArray = `${notObject}.${createHmac('sha256', SECRET).update(`p\n${notObject}`).digest('base64url')}`;
    expect(openSignedToken(SECRET, 'p', signedArray)).to.equal(null);
  });
});
