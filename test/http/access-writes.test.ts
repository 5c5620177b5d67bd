import { expect } from 'chai';
import {
  adminRead,
  call,
  callers,
  CALLER_ROLES,
  expectUnauthorized,
  minimalBody,
  POST_KINDS,
  recordOf,
  STATUSES,
  type CallerRole,
  type Callers,
  type Status,
} from '../support/access';
import { expectError, expectInvalid } from '../support/errors';
import type { ApiResponse } from '../support/api';
import { testWorld } from '../support/harness';
import { settle, unique } from '../support/lists';

/**
 * CONTRACT part 6 on writes, as a matrix: role × method × own/other's record × status, on ID and
 * slug routes of events, venues and organizers; creates with each requested status and author;
 * categories and tags; links and inline records in event writes. Expectations are the tables
 * below, written from the contract (not from src/domain/policy.ts).
 */

type Owner = 'own' | 'other';
type Action = 'update' | 'trash' | 'force';
const ALL = STATUSES;
const UNPUBLISHED: readonly Status[] = ['draft', 'pending', 'trash'];

/** Statuses of a record each role may change (update) or trash, by ownership. */
const MAY_CHANGE: Record<CallerRole, Record<Owner, readonly Status[]>> = {
  anonymous: { own: [], other: [] },
  contributor: { own: UNPUBLISHED, other: [] },
  author: { own: ALL, other: [] },
  editor: { own: ALL, other: ALL },
  administrator: { own: ALL, other: ALL },
};
/** Who may delete permanently (force=true): editors and above, whatever the record. */
const MAY_FORCE: Record<CallerRole, boolean> = {
  anonymous: false,
  contributor: false,
  author: false,
  editor: true,
  administrator: true,
};
const ownersOf = (role: CallerRole): Owner[] => (role === 'anonymous' ? ['other'] : ['own', 'other']);

/** What a create stores for each requested status (undefined: none sent); a number is the error status. */
type Requested = Exclude<Status, 'trash'> | 'none';
const REQUESTED: Requested[] = ['none', 'publish', 'future', 'draft', 'pending', 'private'];
const AS_ASKED: Record<Requested, Status | 403> = {
  none: 'publish',
  publish: 'publish',
  future: 'future',
  draft: 'draft',
  pending: 'pending',
  private: 'private',
};
const STORED_STATUS: Record<CallerRole, Record<Requested, Status | 401 | 403>> = {
  anonymous: { none: 401, publish: 401, future: 401, draft: 401, pending: 401, private: 401 },
  contributor: { none: 'pending', publish: 'pending', future: 403, draft: 'draft', pending: 'pending', private: 403 },
  author: AS_ASKED,
  editor: AS_ASKED,
  administrator: AS_ASKED,
};
/** A status change on the caller's own draft: what is stored (contributors never publish). */
const CHANGED_STATUS: Record<CallerRole, Record<Exclude<Requested, 'none'>, Status | 403>> = {
  anonymous: { publish: 403, future: 403, draft: 403, pending: 403, private: 403 },
  contributor: { publish: 'pending', future: 403, draft: 'draft', pending: 'pending', private: 403 },
  author: AS_ASKED,
  editor: AS_ASKED,
  administrator: AS_ASKED,
};

let who: Callers;

const ownerId = (role: CallerRole, owner: Owner) => (owner === 'own' ? who[role].userId : who.stranger.userId);

function expectForbidden(res: ApiResponse, where: string): void {
  expectError(res, 403, 'rest_forbidden', where);
}

/** The methods of the matrix: an update (PATCH; PUT and POST are checked to be the same), a trash, a permanent delete. */
const ACTIONS: { action: Action; method: string; query: string }[] = [
  { action: 'update', method: 'PATCH', query: '' },
  { action: 'trash', method: 'DELETE', query: '' },
  { action: 'force', method: 'DELETE', query: '?force=true' },
];
const EXPECTED_WORD: Record<Action, string> = { update: 'updates', trash: 'trashes', force: 'force-deletes' };

const mayDo = (role: CallerRole, owner: Owner, status: Status, action: Action): boolean =>
  action === 'force' ? MAY_FORCE[role] : MAY_CHANGE[role][owner].includes(status);

/**
 * Records a case may share: one per owner and status. Updates only change the excerpt and refused
 * writes change nothing, so only allowed trashes and deletes need a record of their own.
 */
type Pool = Map<string, any>;
const poolKey = (owner: number, status: Status) => `${owner}:${status}`;

async function fillPool(plural: 'events' | 'venues' | 'organizers', kind: string): Promise<Pool> {
  const owners = [who.contributor, who.author, who.editor, who.administrator, who.stranger].map((c) => c.userId);
  const pool: Pool = new Map();
  await Promise.all(
    owners.flatMap((owner) =>
      STATUSES.map(async (status) =>
        pool.set(poolKey(owner, status), await recordOf(plural, unique(`${kind} pool`), owner, status)),
      ),
    ),
  );
  return pool;
}

describe('access: writes', () => {
  before(async () => {
    who = await callers();
    // No list is read here: indexing these writes one by one would only slow them down, so the
    // worker pauses and catches up in one go afterwards.
    await testWorld().worker.stop();
  });
  after(async function () {
    this.timeout(120_000);
    testWorld().worker.start();
    await settle(110_000);
  });

  for (const { plural, kind } of POST_KINDS) {
    // Slug routes share the handlers of ID routes: the full matrix runs on events, by slug too.
    const routes = plural === 'events' ? (['id', 'slug'] as const) : (['id'] as const);
    describe(`access: ${plural} — update, trash and force-delete by ${routes.join(' and ')}`, () => {
      let pool: Pool;
      before(async function () {
        this.timeout(120_000);
        pool = await fillPool(plural, kind);
      });

      for (const route of routes) {
        for (const role of CALLER_ROLES) {
          for (const owner of ownersOf(role)) {
            for (const status of STATUSES) {
              for (const { action, method, query } of ACTIONS) {
                if (route === 'slug' && action === 'force') continue;
                const allowed = role !== 'anonymous' && mayDo(role, owner, status, action);
                const outcome =
                  role === 'anonymous'
                    ? '401'
                    : !allowed
                      ? '403'
                      : action === 'trash' && status === 'trash'
                        ? '410'
                        : '200';
                const whose = owner === 'own' ? 'its own' : "another's";
                it(`${role} ${EXPECTED_WORD[action]} ${whose} ${status} ${kind} by ${route} → ${outcome}`, async () => {
                  const caller = who[role];
                  const ownerUser = ownerId(role, owner);
                  const fresh = outcome === '200' && action !== 'update';
                  const record = fresh
                    ? await recordOf(plural, unique(kind), ownerUser, status)
                    : pool.get(poolKey(ownerUser, status));
                  const path = `/${plural}/${route === 'id' ? record.id : `by-slug/${record.slug}`}${query}`;
                  const marker = unique(`changed by ${role} `);
                  const res = await call(method, path, caller, action === 'update' ? { excerpt: marker } : undefined);
                  const where = `${method} ${path} as ${role}`;
                  if (outcome === '401') expectUnauthorized(res, where);
                  else if (outcome === '403') expectForbidden(res, where);
                  else if (outcome === '410') expectError(res, 410, `${kind}-is-in-trash`, where);
                  else if (action === 'update') {
                    expect(res.status, `${where} ${JSON.stringify(res.body)}`).to.equal(200);
                    expect(res.body).to.include({ id: record.id, status, author: ownerUser });
                    expect(res.body.excerpt).to.include(marker);
                  } else if (action === 'force') {
                    expect([res.status, res.body]).to.deep.equal([200, { id: record.id, deleted: true }]);
                    expectError(await adminRead(plural, record.id), 404, `rest-${kind}-not-found`, where);
                  } else {
                    expect(res.status, `${where} ${JSON.stringify(res.body)}`).to.equal(200);
                    expect(res.body).to.include({ id: record.id, status: 'trash', author: ownerUser });
                  }
                  if (outcome !== '200') {
                    // A refused write changes nothing.
                    const after = await adminRead(plural, record.id);
                    expect(after.status).to.equal(200);
                    expect(after.body).to.include({ status, author: ownerUser });
                    expect(String(after.body.excerpt)).not.to.include(marker);
                  }
                });
              }
            }
          }
        }
      }

      if (plural !== 'events') return;
      for (const role of CALLER_ROLES) {
        for (const owner of ownersOf(role)) {
          it(`${role}: PUT and POST on ${owner === 'own' ? 'its own' : "another's"} draft ${kind} behave as PATCH`, async () => {
            const record = pool.get(poolKey(ownerId(role, owner), 'draft'));
            for (const method of ['PUT', 'POST']) {
              const marker = unique(`${method} by ${role} `);
              const res = await call(method, `/${plural}/${record.id}`, who[role], { excerpt: marker });
              const where = `${method} ${role} ${owner}`;
              if (role === 'anonymous') expectUnauthorized(res, where);
              else if (!MAY_CHANGE[role][owner].includes('draft')) expectForbidden(res, where);
              else {
                expect(res.status, where).to.equal(200);
                expect(res.body).to.include({ id: record.id, status: 'draft' });
                expect(res.body.excerpt).to.include(marker);
              }
            }
          });
        }
      }
    });

    describe(`access: ${plural} — create with each status, author and status changes`, () => {
      for (const role of CALLER_ROLES) {
        for (const requested of REQUESTED) {
          it(`${role} creates a ${kind} asking for ${requested === 'none' ? 'no status' : requested}`, async () => {
            const caller = who[role];
            const body = {
              ...minimalBody(plural, unique(kind)),
              ...(requested === 'none' ? {} : { status: requested }),
            };
            const res = await call('POST', `/${plural}`, caller, body);
            const expected = STORED_STATUS[role][requested];
            const where = `${role} ${requested}`;
            if (expected === 401) expectUnauthorized(res, where);
            else if (expected === 403) expectForbidden(res, where);
            else {
              expect(res.status, `${where} ${JSON.stringify(res.body)}`).to.equal(201);
              expect(res.body).to.include({ status: expected, author: caller.userId });
              expect(res.headers.get('location')).to.equal(res.body.rest_url);
            }
          });
        }

        if (role === 'anonymous' || plural !== 'events') continue;
        // Author and status rules are those of every post kind (src/api/posts/postContent.ts): on events.
        for (const [label, author] of [
          ['itself', 'self'],
          ['someone else', 'stranger'],
          ['nobody (null)', null],
        ] as const) {
          const mayAssign = author === 'self' || role === 'editor' || role === 'administrator';
          it(`${role} ${mayAssign ? 'may' : 'may not'} make ${label} the author of a ${kind}, on create and on update`, async () => {
            const caller = who[role];
            const value = author === 'self' ? caller.userId : author === 'stranger' ? who.stranger.userId : null;
            const created = await call('POST', `/${plural}`, caller, {
              ...minimalBody(plural, unique(kind)),
              status: 'draft',
              author: value,
            });
            const own = await recordOf(plural, unique(kind), caller.userId, 'draft');
            const updated = await call('PATCH', `/${plural}/${own.id}`, caller, { author: value });
            if (!mayAssign) {
              expectForbidden(created, `create ${role}`);
              expectForbidden(updated, `update ${role}`);
              expect((await adminRead(plural, own.id)).body.author).to.equal(caller.userId);
              return;
            }
            expect(created.status, JSON.stringify(created.body)).to.equal(201);
            expect(created.body.author).to.equal(value ?? 0);
            expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
            expect(updated.body.author).to.equal(value ?? 0);
          });
        }

        for (const requested of REQUESTED.filter((r): r is Exclude<Requested, 'none'> => r !== 'none')) {
          it(`${role} changes its own draft ${kind} to ${requested}`, async () => {
            const caller = who[role];
            const own = await recordOf(plural, unique(kind), caller.userId, 'draft');
            const res = await call('PATCH', `/${plural}/${own.id}`, caller, { status: requested });
            const expected = CHANGED_STATUS[role][requested];
            if (expected === 403) {
              expectForbidden(res, `${role} ${requested}`);
              expect((await adminRead(plural, own.id)).body.status).to.equal('draft');
            } else {
              expect(res.status, JSON.stringify(res.body)).to.equal(200);
              expect(res.body).to.include({ id: own.id, status: expected });
            }
          });
        }
      }
    });
  }

  describe('access: categories and tags — editors and above only', () => {
    for (const plural of ['categories', 'tags'] as const) {
      for (const role of CALLER_ROLES) {
        const allowed = role === 'editor' || role === 'administrator';
        it(`${role} ${allowed ? 'creates, updates and deletes' : 'may not create, update or delete'} ${plural}`, async () => {
          const caller = who[role];
          const existing = await call('POST', `/${plural}`, who.administrator, { name: unique('term') });
          expect(existing.status).to.equal(201);
          const created = await call('POST', `/${plural}`, caller, { name: unique('term') });
          const updated = await call('PATCH', `/${plural}/${existing.body.id}`, caller, { description: 'changed' });
          const deleted = await call('DELETE', `/${plural}/${existing.body.id}`, caller);
          const expectRefused = role === 'anonymous' ? expectUnauthorized : expectForbidden;
          if (!allowed) {
            for (const res of [created, updated, deleted]) expectRefused(res, role);
            const after = await adminRead(plural, existing.body.id);
            expect(after.status).to.equal(200);
            expect(after.body).to.include({ id: existing.body.id, description: null });
            return;
          }
          expect(created.status).to.equal(201);
          expect(created.body.taxonomy).to.equal(plural === 'categories' ? 'category' : 'tag');
          expect(updated.status).to.equal(200);
          expect(updated.body.description).to.include('changed');
          expect(deleted.status).to.equal(200);
          expect(deleted.body.id).to.equal(existing.body.id);
        });
      }
    }
  });

  describe('access: links and inline records in event writes', () => {
    const event = (extra: Record<string, unknown>) => ({ ...minimalBody('events', unique('linking event')), ...extra });
    const LINKABLE: [string, CallerRole, 'own' | 'stranger', Status, boolean][] = [
      ['contributor', 'contributor', 'stranger', 'publish', true],
      ['contributor', 'contributor', 'own', 'pending', true],
      ['contributor', 'contributor', 'stranger', 'draft', false],
      ['author', 'author', 'stranger', 'publish', true],
      ['author', 'author', 'own', 'draft', true],
      ['author', 'author', 'stranger', 'draft', false],
      ['author', 'author', 'stranger', 'private', false],
      ['editor', 'editor', 'stranger', 'draft', true],
      ['administrator', 'administrator', 'stranger', 'private', true],
    ];
    for (const [label, role, owner, status, allowed] of LINKABLE) {
      // An event's parent follows the same rules as its venue and organizers.
      for (const linked of ['venues', 'organizers', 'events'] as const) {
        const param = { venues: 'venue', organizers: 'organizer', events: 'post_parent' }[linked];
        it(`${label} ${allowed ? 'may' : 'may not'} link ${owner === 'own' ? 'its own' : "another's"} ${status} ${param}`, async () => {
          const caller = who[role];
          const target = await recordOf(
            linked,
            unique(param),
            owner === 'own' ? caller.userId : who.stranger.userId,
            status,
          );
          const res = await call('POST', '/events', caller, event({ status: 'draft', [param]: target.id }));
          if (!allowed) {
            expectForbidden(res, label);
            expect(res.body.message).to.include(String(target.id));
            return;
          }
          expect(res.status, JSON.stringify(res.body)).to.equal(201);
          if (linked === 'events') {
            expect(res.body.post_parent).to.equal(target.id);
            return;
          }
          const embedded = linked === 'venues' ? [res.body.venue] : res.body.organizer;
          expect(embedded.map((r: { id: number }) => r.id)).to.deep.equal([target.id]);
        });
      }
    }

    for (const role of ['contributor', 'author', 'editor'] as const) {
      it(`${role}: inline venues and organizers follow the ${role}'s create rules`, async () => {
        const caller = who[role];
        const venueName = unique('inline venue');
        const organizerName = unique('inline organizer');
        const res = await call(
          'POST',
          '/events',
          caller,
          event({ venue: { venue: venueName, status: 'publish' }, organizer: [{ organizer: organizerName }] }),
        );
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const expected = role === 'contributor' ? 'pending' : 'publish';
        expect(res.body.status).to.equal(expected);
        expect(res.body.venue).to.include({ venue: venueName, status: expected, author: caller.userId });
        expect(res.body.organizer[0]).to.include({ organizer: organizerName, status: expected, author: caller.userId });
      });
    }

    it('refuses a contributor inline venue with a status it may not set, creating nothing', async () => {
      const venueName = unique('private inline venue');
      const title = unique('refused event');
      const res = await call('POST', '/events', who.contributor, {
        ...minimalBody('events', title),
        venue: { venue: venueName, status: 'private' },
      });
      expectForbidden(res, 'inline private');
      const { stores } = testWorld().services;
      expect(await stores.venues.docs.countDocuments({ venue: venueName })).to.equal(0);
      expect(await stores.events.docs.countDocuments({ title })).to.equal(0);
    });

    for (const role of ['contributor', 'author', 'editor', 'administrator'] as const) {
      const mayCreate = role === 'editor' || role === 'administrator';
      it(`${role} ${mayCreate ? 'creates' : 'may not create'} categories and tags by naming them, and may name existing ones`, async () => {
        const caller = who[role];
        const known = await call('POST', '/categories', who.administrator, { name: unique('Known') });
        const fresh = unique('Fresh');
        const existing = await call(
          'POST',
          '/events',
          caller,
          event({ status: 'draft', categories: [known.body.name] }),
        );
        expect(existing.status, JSON.stringify(existing.body)).to.equal(201);
        expect(existing.body.categories.map((t: { id: number }) => t.id)).to.deep.equal([known.body.id]);
        for (const param of ['categories', 'tags']) {
          const res = await call('POST', '/events', caller, event({ status: 'draft', [param]: [fresh] }));
          if (!mayCreate) {
            expectForbidden(res, `${role} ${param}`);
            continue;
          }
          expect(res.status, JSON.stringify(res.body)).to.equal(201);
          expect(res.body[param].map((t: { name: string }) => t.name)).to.deep.equal([fresh]);
        }
      });
    }
  });

  describe('access: concurrent writes', () => {
    it("a contributor's change racing an editor's publish never lands on the published event", async () => {
      for (let round = 0; round < 8; round++) {
        const event = await recordOf('events', unique('raced'), who.contributor.userId, 'pending');
        const [publish, change] = await Promise.all([
          call('PATCH', `/events/${event.id}`, who.editor, { status: 'publish' }),
          call('PATCH', `/events/${event.id}`, who.contributor, { status: 'draft', title: unique('contributor wins') }),
        ]);
        expect([publish.status, change.status], JSON.stringify([publish.body, change.body])).to.satisfy(
          ([a, b]: number[]) => [200, 409].includes(a) && [200, 403, 409].includes(b),
        );
        for (const res of [publish, change]) if (res.status === 409) expectError(res, 409, 'rest_conflict');
        const final = (await adminRead('events', event.id)).body;
        // A change that landed came before the publish (after it, the contributor may not write).
        const expected = {
          status: publish.status === 200 ? 'publish' : change.status === 200 ? 'draft' : 'pending',
          title: change.status === 200 ? change.body.title : event.title,
        };
        expect({ status: final.status, title: final.title }, `round ${round}`).to.deep.equal(expected);
      }
    });

    it('refuses a write checked against a record another write has changed since (409), writing nothing', async () => {
      const { stores } = testWorld().services;
      const event = await recordOf('events', unique('stale'), who.editor.userId, 'publish');
      const stale = (await stores.events.get(event.id))!;
      expect((await call('PATCH', `/events/${event.id}`, who.editor, { title: unique('newer') })).status).to.equal(200);
      const newer = (await adminRead('events', event.id)).body;
      const refused = await stores.events.update(stale, 'en', { title: 'stale write' } as never).then(
        () => null,
        (err: Error) => err,
      );
      expect(refused?.name).to.equal('ConflictError');
      expect((await adminRead('events', event.id)).body).to.deep.equal(newer);
    });

    it("a write meeting another process's write is 409 before it makes its inline venue, organizer or terms", async () => {
      const { stores } = testWorld().services;
      const event = await recordOf('events', unique('held'), who.editor.userId, 'publish');
      const before = (await adminRead('events', event.id)).body;
      // Another API process is writing the event: it holds the claim.
      await stores.events.docs.updateMany(
        { id: event.id },
        { $set: { writeLockedUntil: new Date(Date.now() + 60_000) } },
      );
      const name = unique('never made');
      const refused = await call('PATCH', `/events/${event.id}`, who.editor, {
        title: 'Loser',
        venue: { venue: `${name} hall` },
        organizer: [{ organizer: `${name} org` }],
        categories: [`${name} category`],
        tags: [`${name} tag`],
      });
      await stores.events.docs.updateMany({ id: event.id }, { $unset: { writeLockedUntil: '' } });
      expectError(refused, 409, 'rest_conflict');
      expect(await stores.venues.docs.countDocuments({ venue: `${name} hall` })).to.equal(0);
      expect(await stores.organizers.docs.countDocuments({ organizer: `${name} org` })).to.equal(0);
      expect(await stores.categories.docs.countDocuments({ name: `${name} category` })).to.equal(0);
      expect(await stores.tags.docs.countDocuments({ name: `${name} tag` })).to.equal(0);
      expect((await adminRead('events', event.id)).body).to.deep.equal(before);
    });

    it('a write whose linked records cannot be made releases its claim and leaves the record as it was', async () => {
      const { stores } = testWorld().services;
      const event = await recordOf('events', unique('released'), who.editor.userId, 'publish');
      const before = (await adminRead('events', event.id)).body;
      const failed = await stores.events
        .update((await stores.events.get(event.id))!, 'en', () => Promise.reject(new Error('MongoDB went away')))
        .then(
          () => null,
          (err: Error) => err.message,
        );
      expect(failed).to.equal('MongoDB went away');
      expect((await adminRead('events', event.id)).body).to.deep.equal(before);
      // Free at once: not held for the 30 s a crashed writer's claim lasts.
      const next = await call('PATCH', `/events/${event.id}`, who.editor, { title: 'Next writer' });
      expect(next.status, JSON.stringify(next.body)).to.equal(200);
      expect(next.body.title).to.equal('Next writer');
    });
  });

  describe('access: authors are users', () => {
    it('refuses an author no key was issued to, on create, update and inline records, writing nothing', async () => {
      const nobody = 987_654_321;
      const title = unique('ghost-authored');
      const created = await call('POST', '/events', who.editor, { ...minimalBody('events', title), author: nobody });
      expectInvalid(created, 'author');
      expect(created.body.data.params.author).to.equal(`there is no user with ID ${nobody}`);
      expect(await testWorld().services.stores.events.docs.countDocuments({ title })).to.equal(0);

      const own = await recordOf('venues', unique('ghost venue'), who.editor.userId, 'publish');
      expectInvalid(await call('PATCH', `/venues/${own.id}`, who.administrator, { author: nobody }), 'author');
      expect((await adminRead('venues', own.id)).body.author).to.equal(who.editor.userId);

      const inline = await call('POST', '/events', who.editor, {
        ...minimalBody('events', title),
        venue: { venue: `${title} hall` },
        organizer: [{ organizer: unique('ghost org'), author: nobody }],
      });
      expectInvalid(inline, 'organizer');
      expect(inline.body.data.params.organizer).to.equal(`organizer[0].author: there is no user with ID ${nobody}`);
      expect(await testWorld().services.stores.events.docs.countDocuments({ title })).to.equal(0);
      expect(await testWorld().services.stores.venues.docs.countDocuments({ venue: `${title} hall` })).to.equal(0);
    });

    it('keeps the user of a revoked key a valid author: their records still name them', async () => {
      const keys = testWorld().services.apiKeys;
      const { record } = await keys.create(unique('leaver'), 'author');
      expect(await keys.revoke(record.id)).to.equal(true);
      const res = await call('POST', '/organizers', who.editor, { organizer: unique('Kept'), author: record.userId });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.author).to.equal(record.userId);
    });
  });
});
