import { expect } from 'chai';
import {
  applyVerdict,
  bypassesPassword,
  decideCreate,
  decideDelete,
  decideUpdate,
  listScope,
  mayLink,
  mayManageTerms,
  mayRead,
  owns,
  readDenial,
  seesHiddenEvents,
  type Verdict,
} from '../../../src/domain/policy';
import { ForbiddenError } from '../../../src/domain/errors';
import type { Role } from '../../../src/domain/principal';
import type { Principal } from '../../../src/domain/principal';
import type { Status } from '../../../src/domain/status';

const ME = 7;
const SOMEONE = 9;
const anonymous: Principal = { keyId: null, userId: 0, role: null };
const as = (role: Role): Principal => ({ keyId: `key-${role}`, userId: ME, role });
const CALLERS: [string, Principal][] = [
  ['anonymous', anonymous],
  ['contributor', as('contributor')],
  ['author', as('author')],
  ['editor', as('editor')],
  ['administrator', as('administrator')],
];
const STATUSES: Status[] = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
const ALL = STATUSES;

/** Outcome of a verdict as text: "ok", "ok:<stored status>" or "no". */
const outcome = (verdict: Verdict): string =>
  verdict.allowed ? (verdict.status ? `ok:${verdict.status}` : 'ok') : 'no';

describe('auth/policy: reads', () => {
  /** Statuses each caller reads, for its own records and for someone else's. */
  const READS: Record<string, { own: Status[]; other: Status[] }> = {
    anonymous: { own: ['publish'], other: ['publish'] },
    contributor: { own: ALL, other: ['publish'] },
    author: { own: ALL, other: ['publish'] },
    editor: { own: ALL, other: ALL },
    administrator: { own: ALL, other: ALL },
  };
  for (const [name, principal] of CALLERS) {
    for (const status of STATUSES) {
      for (const owner of ['own', 'other'] as const) {
        const expected = READS[name]![owner].includes(status);
        it(`${name} ${expected ? 'reads' : 'may not read'} ${owner} ${status} records`, () => {
          const record = { status, author: owner === 'own' ? ME : SOMEONE };
          expect(mayRead(principal, record)).to.equal(expected);
          expect(mayLink(principal, record)).to.equal(expected);
          const code = readDenial('venue', principal, record);
          expect(code).to.equal(
            expected ? null : status === 'trash' ? 'venue-no-longer-available' : 'venue-not-accessible',
          );
        });
      }
    }
  }

  it('never treats an anonymous caller as the owner of authorless records', () => {
    expect(owns(anonymous, { status: 'draft', author: 0 })).to.equal(false);
    expect(mayRead(anonymous, { status: 'draft', author: 0 })).to.equal(false);
  });

  it('lets editors and the owner bypass passwords, and only editors manage terms and see hidden events', () => {
    const event = { status: 'publish' as Status, author: ME };
    const others = { status: 'publish' as Status, author: SOMEONE };
    const table = CALLERS.map(([name, p]) => [
      name,
      bypassesPassword(p, event),
      bypassesPassword(p, others),
      mayManageTerms(p),
      seesHiddenEvents(p),
    ]);
    expect(table).to.deep.equal([
      ['anonymous', false, false, false, false],
      ['contributor', true, false, false, false],
      ['author', true, false, false, false],
      ['editor', true, true, true, true],
      ['administrator', true, true, true, true],
    ]);
  });
});

describe('auth/policy: list scopes', () => {
  const LIVE: Status[] = ['publish', 'future', 'draft', 'pending', 'private'];
  const CASES: [string, Principal, Status[] | undefined, { everyone: Status[]; own: Status[]; forbidden: Status[] }][] =
    [
      ['anonymous, default', anonymous, undefined, { everyone: ['publish'], own: [], forbidden: [] }],
      ['anonymous, publish', anonymous, ['publish'], { everyone: ['publish'], own: [], forbidden: [] }],
      [
        'anonymous, draft+trash',
        anonymous,
        ['publish', 'draft', 'trash'],
        { everyone: ['publish'], own: [], forbidden: ['draft', 'trash'] },
      ],
      [
        'author, default',
        as('author'),
        undefined,
        { everyone: ['publish'], own: ['future', 'draft', 'pending', 'private'], forbidden: [] },
      ],
      ['author, trash', as('author'), ['trash'], { everyone: [], own: ['trash'], forbidden: [] }],
      [
        'contributor, publish+pending',
        as('contributor'),
        ['publish', 'pending'],
        { everyone: ['publish'], own: ['pending'], forbidden: [] },
      ],
      ['editor, default', as('editor'), undefined, { everyone: LIVE, own: [], forbidden: [] }],
      ['editor, status= (empty: the default)', as('editor'), [], { everyone: LIVE, own: [], forbidden: [] }],
      ['anonymous, status= (empty: the default)', anonymous, [], { everyone: ['publish'], own: [], forbidden: [] }],
      ['administrator, trash', as('administrator'), ['trash'], { everyone: ['trash'], own: [], forbidden: [] }],
    ];
  for (const [label, principal, requested, expected] of CASES) {
    it(label, () => expect(listScope(principal, requested)).to.deep.equal(expected));
  }
});

describe('auth/policy: writes', () => {
  type Requested = Status | undefined;
  const REQUESTED: Requested[] = [undefined, 'publish', 'future', 'draft', 'pending', 'private'];
  const AS_ASKED = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok'];
  /** decideCreate per requested status, in the order of REQUESTED. */
  const CREATE: Record<string, string[]> = {
    anonymous: ['no', 'no', 'no', 'no', 'no', 'no'],
    contributor: ['ok:pending', 'ok:pending', 'no', 'ok:draft', 'ok:pending', 'no'],
    author: AS_ASKED,
    editor: AS_ASKED,
    administrator: AS_ASKED,
  };
  for (const [name, principal] of CALLERS) {
    it(`create as ${name}: ${CREATE[name]!.join(', ')}`, () => {
      expect(REQUESTED.map((status) => outcome(decideCreate('event', principal, { status })))).to.deep.equal(
        CREATE[name],
      );
    });
  }

  /** decideUpdate without a status change, per existing status in STATUSES order, own / other. */
  const UPDATE: Record<string, { own: string; other: string }> = {
    anonymous: { own: 'nnnnnn', other: 'nnnnnn' },
    contributor: { own: 'nnyyny', other: 'nnnnnn' },
    author: { own: 'yyyyyy', other: 'nnnnnn' },
    editor: { own: 'yyyyyy', other: 'yyyyyy' },
    administrator: { own: 'yyyyyy', other: 'yyyyyy' },
  };
  const yn = (verdicts: Verdict[]) => verdicts.map((v) => (v.allowed ? 'y' : 'n')).join('');
  for (const [name, principal] of CALLERS) {
    for (const owner of ['own', 'other'] as const) {
      const author = owner === 'own' ? ME : SOMEONE;
      it(`update and trash as ${name}, ${owner} records (publish future draft pending private trash)`, () => {
        const updates = STATUSES.map((status) => decideUpdate('organizer', principal, { status, author }, {}));
        const trashes = STATUSES.map((status) => decideDelete('organizer', principal, { status, author }, false));
        expect(yn(updates)).to.equal(UPDATE[name]![owner]);
        expect(yn(trashes)).to.equal(UPDATE[name]![owner]);
        const forced = STATUSES.map((status) => decideDelete('organizer', principal, { status, author }, true));
        expect(yn(forced)).to.equal(name === 'editor' || name === 'administrator' ? 'yyyyyy' : 'nnnnnn');
      });
    }
  }

  it("keeps a contributor's records unpublished on update", () => {
    const own = { status: 'draft' as Status, author: ME };
    const contributor = as('contributor');
    expect(REQUESTED.map((status) => outcome(decideUpdate('venue', contributor, own, { status })))).to.deep.equal([
      'ok',
      'ok:pending',
      'no',
      'ok:draft',
      'ok:pending',
      'no',
    ]);
  });

  it('tells a contributor why a published or scheduled record is locked, in words', () => {
    const contributor = as('contributor');
    const reason = (status: Status) => {
      const verdict = decideUpdate('organizer', contributor, { status, author: ME }, {});
      return verdict.allowed ? 'allowed' : verdict.reason;
    };
    expect(reason('publish')).to.equal('Contributors may not change an organizer once it is published.');
    expect(reason('future')).to.equal('Contributors may not change an organizer once it is scheduled.');
  });

  it('lets only editors and above set another author (null is author 0)', () => {
    const own = { status: 'draft' as Status, author: ME };
    for (const [name, principal] of CALLERS.slice(1)) {
      const editor = name === 'editor' || name === 'administrator';
      for (const author of [SOMEONE, null, 0]) {
        expect(decideCreate('event', principal, { author }).allowed, `${name} create ${author}`).to.equal(editor);
        expect(decideUpdate('event', principal, own, { author }).allowed, `${name} update ${author}`).to.equal(editor);
      }
      expect(decideCreate('event', principal, { author: ME }).allowed, `${name} self`).to.equal(true);
    }
  });

  it('lets only editors and above write categories and tags', () => {
    const term = { status: 'publish' as Status, author: 0 };
    for (const kind of ['category', 'tag'] as const) {
      expect(CALLERS.map(([, p]) => decideCreate(kind, p, {}).allowed)).to.deep.equal([
        false,
        false,
        false,
        true,
        true,
      ]);
      expect(CALLERS.map(([, p]) => decideUpdate(kind, p, term, {}).allowed)).to.deep.equal([
        false,
        false,
        false,
        true,
        true,
      ]);
      expect(CALLERS.map(([, p]) => decideDelete(kind, p, term, false).allowed)).to.deep.equal([
        false,
        false,
        false,
        true,
        true,
      ]);
    }
  });

  it('applies a verdict: the stored status replaces the requested one, a denial is 403 rest_forbidden', () => {
    expect(applyVerdict({ allowed: true, status: 'pending' }, { status: 'publish', title: 'x' })).to.deep.equal({
      status: 'pending',
      title: 'x',
    });
    const input = { title: 'x' };
    expect(applyVerdict({ allowed: true }, input)).to.equal(input);
    expect(() => applyVerdict({ allowed: false, reason: 'Nope.' }, input))
      .to.throw(ForbiddenError, 'Nope.')
      .with.property('code', 'rest_forbidden');
  });
});
