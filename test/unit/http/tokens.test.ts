import { expect } from 'chai';
import { ExpiredTokenError, ValidationError } from '../../../src/domain/errors';
import { signToken } from '../../../src/domain/signedToken';
import { bindingOf, issueCursor, readCursor } from '../../../src/http/cursor';
import { Joi } from '../../../src/http/params';
import { issueToken, openToken, tokenKind } from '../../../src/http/tokens';
import type { Principal } from '../../../src/domain/principal';
import { CHANGES_TOKEN } from '../../../src/http/changesToken';

const SECRET = 's'.repeat(32);
const ANONYMOUS: Principal = { keyId: null, userId: 0, role: null };

interface Seat {
  row: number;
}
const SEAT = tokenKind<Seat>({
  purpose: 'test-seat',
  param: 'seat',
  remedy: 'send the seat you were given',
  schema: Joi.object<Seat>({ row: Joi.number().integer().required() }),
});
const TICKET = tokenKind<Seat>({ ...SEAT, purpose: 'test-ticket', param: 'ticket', remedy: 'send your ticket' });

/** The 400 `fn` throws, as `{param: message}`. */
function refusal(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    const e = err as ValidationError;
    expect(e.status).to.equal(400);
    return e.params;
  }
  throw new Error('expected a 400');
}

describe('http/tokens: typed tokens taken back as parameters', () => {
  it('opens a token of its kind to its typed payload', () => {
    expect(openToken(SECRET, issueToken(SECRET, SEAT, { row: 7 }), SEAT)).to.deep.equal({ row: 7 });
  });

  it('refuses an altered token, another secret or garbage with a 400 naming the parameter', () => {
    const token = issueToken(SECRET, SEAT, { row: 7 });
    const [, mac] = token.split('.');
    const altered = `${Buffer.from('{"row":8}').toString('base64url')}.${mac}`;
    for (const [bad, secret] of [
      [altered, SECRET],
      [token, 't'.repeat(32)],
      ['nonsense', SECRET],
      [`${token}x`, SECRET],
    ] as const) {
      const params = refusal(() => openToken(secret, bad, SEAT));
      expect(params, bad).to.have.keys('seat');
      expect(params.seat).to.equal('seat is not a token this API issued (send the seat you were given)');
    }
  });

  it('tells a token of another kind apart, and refuses it naming the parameter', () => {
    const ticket = issueToken(SECRET, TICKET, { row: 7 });
    expect(refusal(() => openToken(SECRET, ticket, SEAT))).to.deep.equal({
      seat: 'seat is a token for ticket, not for seat (send the seat you were given)',
    });
  });

  it('refuses a payload of another shape, though signed with the right purpose', () => {
    for (const payload of [{}, { row: 'seven' }, { row: 1.5 }]) {
      const token = signToken(SECRET, SEAT.purpose, payload);
      expect(
        refusal(() => openToken(SECRET, token, SEAT)),
        JSON.stringify(payload),
      ).to.have.keys('seat');
    }
  });
});

describe('http/cursor: list cursors over typed tokens', () => {
  const binding = bindingOf('event', 'en', ANONYMOUS, { search: 'jazz' });
  const position = { pit: 'pit-1', after: [3, 'x'], seen: 6, total: 20 };

  it('gives back the position and the walk\u2019s now', () => {
    const now = new Date('2027-01-02T03:04:05Z');
    const read = readCursor(SECRET, binding, issueCursor(SECRET, binding, position, now));
    expect(read).to.deep.equal({ position, now });
  });

  it('tampered, for another list, caller or filters: 400 naming cursor', () => {
    const token = issueCursor(SECRET, binding, position, new Date());
    const flipped = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
    const others = [
      { ...binding, kind: 'venue' as const },
      { ...binding, caller: 'key-1' },
      bindingOf('event', 'en', ANONYMOUS, { search: 'rock' }),
    ];
    expect(refusal(() => readCursor(SECRET, binding, flipped))).to.have.keys('cursor');
    for (const other of others) expect(refusal(() => readCursor(SECRET, other, token))).to.have.keys('cursor');
  });

  it('a /changes token sent as a cursor: 400 naming cursor and saying what it is', () => {
    const since = issueToken(SECRET, CHANGES_TOKEN, { seq: 1, at: Date.now() });
    expect(refusal(() => readCursor(SECRET, binding, since)).cursor).to.match(/^cursor is a token for since/);
  });

  it('lapsed: 410 cursor-expired', () => {
    const token = issueCursor(SECRET, binding, position, new Date());
    const realNow = Date.now;
    Date.now = () => realNow() + 6 * 60_000;
    try {
      expect(() => readCursor(SECRET, binding, token))
        .to.throw(ExpiredTokenError)
        .with.property('code', 'cursor-expired');
    } finally {
      Date.now = realNow;
    }
  });
});

describe('http/changesToken: /changes positions over typed tokens', () => {
  it('opens its own tokens, and refuses altered ones, cursors and odd positions naming since', () => {
    const token = issueToken(SECRET, CHANGES_TOKEN, { seq: 41, at: 1000 });
    expect(openToken(SECRET, token, CHANGES_TOKEN)).to.deep.equal({ seq: 41, at: 1000 });
    expect(refusal(() => openToken(SECRET, `${token.slice(0, -2)}AA`, CHANGES_TOKEN))).to.have.keys('since');
    const binding = bindingOf('event', 'en', ANONYMOUS, {});
    const cursor = issueCursor(SECRET, binding, { pit: 'p', after: null, seen: 0, total: 0 }, new Date());
    expect(refusal(() => openToken(SECRET, cursor, CHANGES_TOKEN)).since).to.match(/^since is a token for cursor/);
    for (const odd of [{ seq: -1, at: 1 }, { seq: 1.5, at: 1 }, { seq: 1 }]) {
      const forged = signToken(SECRET, CHANGES_TOKEN.purpose, odd);
      expect(
        refusal(() => openToken(SECRET, forged, CHANGES_TOKEN)),
        JSON.stringify(odd),
      ).to.have.keys('since');
    }
  });
});
