import { expect } from 'chai';
import {
  as,
  call,
  callers,
  CALLER_ROLES,
  POST_KINDS,
  recordOf,
  STATUSES,
  type CallerRole,
  type Callers,
  type PostPlural,
  type Status,
} from '../support/access';
import { expectError } from '../support/errors';
import { api } from '../support/api';
import { listIds, searchReady, settle, unique, writeIndexed } from '../support/lists';

/**
 * CONTRACT part 6 on reads, as a matrix: role × own/other's record × status on ID and slug
 * routes; every list with and without `status`; embedded venues and organizers on single reads
 * and in lists; filters naming unreadable events; hidden events. Expectations are the tables below.
 */

type Owner = 'own' | 'other';
const ownersOf = (role: CallerRole): Owner[] => (role === 'anonymous' ? ['other'] : ['own', 'other']);
const EDITORS: CallerRole[] = ['editor', 'administrator'];

/** Which statuses of a record each role reads, by ownership (CONTRACT part 6 and the /doc guide). */
const READS: Record<CallerRole, Record<Owner, readonly Status[]>> = {
  anonymous: { own: [], other: ['publish'] },
  contributor: { own: STATUSES, other: ['publish'] },
  author: { own: STATUSES, other: ['publish'] },
  editor: { own: STATUSES, other: STATUSES },
  administrator: { own: STATUSES, other: STATUSES },
};

/** What a list shows without `status` (every readable status but trash) and which `status` values are a 400. */
function listed(role: CallerRole, owner: Owner, status: Status, requested: Status[] | undefined): boolean {
  if (!READS[role][owner].includes(status)) return false;
  return requested ? requested.includes(status) : status !== 'trash';
}
const refusedStatuses = (role: CallerRole, requested: Status[]): Status[] =>
  role === 'anonymous' ? requested.filter((status) => status !== 'publish') : [];

const STATUS_PARAMS: (Status[] | undefined)[] = [
  undefined,
  ...STATUSES.map((status) => [status]),
  ['publish', 'draft'],
];

let who: Callers;
const OWNER_ROLES = ['contributor', 'author', 'editor', 'administrator'] as const;

interface PoolEntry {
  ownerRole: CallerRole | 'stranger';
  status: Status;
  record: any;
}

describe('access: reads', () => {
  const word = unique('readmatrix');
  const pools = new Map<PostPlural, PoolEntry[]>();

  before(async function () {
    this.timeout(120_000);
    who = await callers();
    await searchReady();
    await Promise.all(
      POST_KINDS.map(async ({ plural, kind }) => {
        const entries: PoolEntry[] = [];
        await Promise.all(
          [...OWNER_ROLES, 'stranger' as const].flatMap((ownerRole) =>
            STATUSES.map(async (status) => {
              const record = await recordOf(
                plural,
                `${word} ${kind} ${ownerRole} ${status}`,
                who[ownerRole].userId,
                status,
              );
              entries.push({ ownerRole, status, record });
            }),
          ),
        );
        pools.set(plural, entries);
      }),
    );
    await settle(60_000);
  });

  const entryFor = (plural: PostPlural, role: CallerRole, owner: Owner, status: Status): PoolEntry =>
    pools.get(plural)!.find((e) => e.status === status && e.ownerRole === (owner === 'own' ? role : 'stranger'))!;

  for (const { plural, kind } of POST_KINDS) {
    describe(`single ${kind} reads by ID and by slug`, () => {
      for (const role of CALLER_ROLES) {
        for (const owner of ownersOf(role)) {
          for (const status of STATUSES) {
            const readable = READS[role][owner].includes(status);
            const outcome = readable
              ? '200'
              : status === 'trash'
                ? `403 ${kind}-no-longer-available`
                : `403 ${kind}-not-accessible`;
            for (const route of ['id', 'slug'] as const) {
              it(`${role} reads ${owner === 'own' ? 'its own' : "another's"} ${status} ${kind} by ${route} → ${outcome}`, async () => {
                const { record } = entryFor(plural, role, owner, status);
                const path = `/${plural}/${route === 'id' ? record.id : `by-slug/${record.slug}`}`;
                const res = await call('GET', path, who[role]);
                if (readable) {
                  expect(res.status, JSON.stringify(res.body)).to.equal(200);
                  expect(res.body).to.include({ id: record.id, status, slug: record.slug });
                } else {
                  expectError(res, 403, outcome.slice(4), `${role} ${path}`);
                  // Refused as addressed: a slug the caller guessed never gives away the record's ID.
                  const named = route === 'id' ? `ID ${record.id}` : `slug "${record.slug}"`;
                  expect(res.body.message).to.match(
                    new RegExp(`^The ${kind} with ${named} (is not accessible|has been deleted)\\.$`),
                  );
                  expect(res.body).not.to.have.property('title');
                }
              });
            }
          }
        }
      }
    });

    describe(`${plural} lists by status`, () => {
      for (const role of CALLER_ROLES) {
        for (const requested of STATUS_PARAMS) {
          const refused = requested ? refusedStatuses(role, requested) : [];
          const label = requested ? `status=${requested.join(',')}` : 'no status';
          it(`${role} lists ${plural} with ${label}${refused.length ? ' → 400' : ''}`, async () => {
            const query = `search=${word}&per_page=50${requested ? `&status=${requested.join(',')}` : ''}`;
            const res = await api.get(`/${plural}?${query}`, as(who[role]));
            if (refused.length > 0) {
              expectError(res, 400, 'rest_invalid_param');
              expect(Object.keys(res.body.data.params)).to.deep.equal(['status']);
              return;
            }
            expect(res.status, JSON.stringify(res.body)).to.equal(200);
            const expected = pools
              .get(plural)!
              .filter((e) => {
                const owner: Owner = e.ownerRole === role ? 'own' : 'other';
                return listed(role, owner, e.status, requested);
              })
              .map((e) => e.record.id as number)
              .sort((a, b) => a - b);
            const ids = (res.body[plural] as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
            expect(ids).to.deep.equal(expected);
            expect(res.body.total).to.equal(expected.length);
          });
        }
      }
    });
  }

  describe('embedded venues and organizers', () => {
    const linkWord = unique('embedwords');
    const draftVenueWord = unique('draftvenuename');
    let venues: Record<string, any>;
    let organizers: Record<string, any>;
    let event: any;
    let onlyDraft: any;

    before(async function () {
      this.timeout(60_000);
      const v = (name: string, owner: number, status: Status, extra = {}) =>
        recordOf('venues', name, owner, status, extra);
      const o = (name: string, owner: number, status: Status) => recordOf('organizers', name, owner, status);
      venues = {
        pub: await v(unique('Public venue'), who.stranger.userId, 'publish'),
        draft: await v(`${draftVenueWord} hall`, who.stranger.userId, 'draft', { geo_lat: 10.5, geo_lng: 20.5 }),
        authorDraft: await v(unique('Author venue'), who.author.userId, 'draft'),
        contributorPrivate: await v(unique('Contributor venue'), who.contributor.userId, 'private'),
      };
      organizers = {
        pub: await o(unique('Public organizer'), who.stranger.userId, 'publish'),
        pending: await o(unique('Pending organizer'), who.stranger.userId, 'pending'),
        authorFuture: await o(unique('Author organizer'), who.author.userId, 'future'),
        // Trashed once linked: a trashed organizer cannot be linked.
        trashed: await o(unique('Trashed organizer'), who.stranger.userId, 'publish'),
      };
      const ids = (records: Record<string, any>) => Object.values(records).map((r) => r.id);
      event = await recordOf('events', `${linkWord} all links`, who.stranger.userId, 'publish', {
        venue: ids(venues),
        organizer: ids(organizers),
      });
      expect((await api.delete(`/organizers/${organizers.trashed.id}`)).body.status).to.equal('trash');
      onlyDraft = await recordOf('events', `${linkWord} draft venue only`, who.stranger.userId, 'publish', {
        venue: venues.draft.id,
      });
      await settle();
    });

    /** The venues and organizers each role sees embedded (trashed ones: nobody). */
    const EMBEDDED: Record<CallerRole, { venues: string[]; organizers: string[] }> = {
      anonymous: { venues: ['pub'], organizers: ['pub'] },
      contributor: { venues: ['pub', 'contributorPrivate'], organizers: ['pub'] },
      author: { venues: ['pub', 'authorDraft'], organizers: ['pub', 'authorFuture'] },
      editor: {
        venues: ['pub', 'draft', 'authorDraft', 'contributorPrivate'],
        organizers: ['pub', 'pending', 'authorFuture'],
      },
      administrator: {
        venues: ['pub', 'draft', 'authorDraft', 'contributorPrivate'],
        organizers: ['pub', 'pending', 'authorFuture'],
      },
    };
    const idsOf = (value: unknown): number[] =>
      (Array.isArray(value) ? value : [value]).map((r: { id: number }) => r.id);
    const venueShape = (expected: number[]) => (expected.length === 1 ? 'object' : 'array');

    for (const role of CALLER_ROLES) {
      for (const where of ['by ID', 'by slug', 'in the list'] as const) {
        it(`${role} sees only the links it may read, ${where}`, async () => {
          const caller = who[role];
          const res =
            where === 'by ID'
              ? await api.get(`/events/${event.id}`, as(caller))
              : where === 'by slug'
                ? await api.get(`/events/by-slug/${event.slug}`, as(caller))
                : await api.get(`/events?search=${linkWord}&include=${event.id},${onlyDraft.id}`, as(caller));
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          const body =
            where === 'in the list' ? res.body.events.find((e: { id: number }) => e.id === event.id) : res.body;
          const expectedVenues = EMBEDDED[role].venues.map((name) => venues[name].id);
          const expectedOrganizers = EMBEDDED[role].organizers.map((name) => organizers[name].id);
          expect(idsOf(body.venue)).to.deep.equal(expectedVenues);
          expect(Array.isArray(body.venue) ? 'array' : 'object').to.equal(venueShape(expectedVenues));
          expect(idsOf(body.organizer)).to.deep.equal(expectedOrganizers);
          if (where !== 'in the list') {
            const location = JSON.stringify(body.json_ld.location ?? null);
            expect(location.includes(draftVenueWord)).to.equal(EMBEDDED[role].venues.includes('draft'));
          }
          // An event whose only venue is a draft: an empty venue for those who may not read it.
          const other =
            where === 'in the list'
              ? res.body.events.find((e: { id: number }) => e.id === onlyDraft.id)
              : (await api.get(`/events/${onlyDraft.id}`, as(caller))).body;
          if (EMBEDDED[role].venues.includes('draft')) expect(other.venue).to.include({ id: venues.draft.id });
          else expect(other.venue).to.deep.equal([]);
        });
      }
    }

    it('matches the venue and organizer filters only on links the caller may read', async () => {
      const included = `search=${linkWord}&include=${event.id},${onlyDraft.id}`;
      for (const role of CALLER_ROLES) {
        for (const [name, venue] of Object.entries(venues)) {
          const listed = await listIds(`/events?${included}&venue=${venue.id}`, as(who[role]));
          const shown = EMBEDDED[role].venues.includes(name);
          const expected = !shown ? [] : name === 'draft' ? [event.id, onlyDraft.id] : [event.id];
          expect(listed, `${role}, venue ${name}`).to.have.members(expected);
        }
        for (const [name, organizer] of Object.entries(organizers)) {
          const listed = await listIds(`/events?${included}&organizer=${organizer.id}`, as(who[role]));
          expect(listed, `${role}, organizer ${name}`).to.deep.equal(
            EMBEDDED[role].organizers.includes(name) ? [event.id] : [],
          );
        }
      }
    });

    it("never matches a draft venue's name or location in search and geo filters", async () => {
      for (const role of CALLER_ROLES) {
        const byName = await api.get(`/events?search=${draftVenueWord}`, as(who[role]));
        expect([byName.status, byName.body.total], role).to.deep.equal([200, 0]);
        const near = await api.get(`/events?search=${linkWord}&geoloc_lat=10.5&geoloc_lng=20.5`, as(who[role]));
        expect([near.status, near.body.total], role).to.deep.equal([200, 0]);
      }
    });

    it('embeds a venue for anonymous callers once it is published, in reads and lists', async () => {
      const venue = await recordOf('venues', unique('Soon public venue'), who.stranger.userId, 'draft');
      const linking = await recordOf('events', `${linkWord} soon public`, who.stranger.userId, 'publish', {
        venue: venue.id,
      });
      await settle();
      const before = await api.get(`/events?search=${linkWord}&include=${linking.id}`);
      expect(before.body.events[0].venue).to.deep.equal([]);
      await writeIndexed('PATCH', `/venues/${venue.id}`, { status: 'publish' });
      await settle();
      const read = await api.get(`/events/${linking.id}`);
      expect(read.body.venue).to.include({ id: venue.id, status: 'publish' });
      const after = await api.get(`/events?search=${linkWord}&include=${linking.id}`);
      expect(after.body.events[0].venue).to.include({ id: venue.id, status: 'publish' });
    });
  });

  describe('filters naming events, hidden events, counts', () => {
    let draftEvent: any;
    let ownDraft: any;
    let hidden: any;
    let venueOfDraft: any;
    let categoryOfDraft: any;
    const hiddenWord = unique('hiddenword');

    before(async function () {
      this.timeout(60_000);
      venueOfDraft = await recordOf('venues', unique('Venue of a draft'), who.stranger.userId, 'publish');
      const category = await api.post('/categories', { name: unique('Draft only category') });
      categoryOfDraft = category.body;
      draftEvent = await recordOf('events', unique('Draft parent'), who.stranger.userId, 'draft', {
        venue: venueOfDraft.id,
        categories: [categoryOfDraft.id],
      });
      ownDraft = await recordOf('events', unique('Author draft'), who.author.userId, 'draft', {
        venue: venueOfDraft.id,
      });
      hidden = await recordOf('events', `${hiddenWord} hidden`, who.stranger.userId, 'publish', {
        hide_from_listings: true,
      });
      await settle();
    });

    /** Label, path, the parameter named, the list's key and what it lists for the draft, then for the author's own. */
    type Filter = [string, (id: number) => string, string, string, () => [number[], number[]]];
    const FILTERS: Filter[] = [
      ['venues?event', (id) => `/venues?event=${id}`, 'event', 'venues', () => [[venueOfDraft.id], [venueOfDraft.id]]],
      ['organizers?event', (id) => `/organizers?event=${id}`, 'event', 'organizers', () => [[], []]],
      [
        'categories?event',
        (id) => `/categories?hide_empty=false&event=${id}`,
        'event',
        'categories',
        () => [[categoryOfDraft.id], []],
      ],
      ['tags?post', (id) => `/tags?post=${id}`, 'post', 'tags', () => [[], []]],
      ['events?post_parent', (id) => `/events?post_parent=${id}`, 'post_parent', 'events', () => [[], []]],
    ];
    for (const [label, path, param, key, expected] of FILTERS) {
      for (const role of CALLER_ROLES) {
        const readsDraft = EDITORS.includes(role);
        it(`${label}: ${role} ${readsDraft ? 'may' : 'may not'} filter by another's draft event, and by its own`, async () => {
          const [ofDraft, ofOwn] = expected();
          const listed = (res: { status: number; body: Record<string, { id: number }[]> }) => {
            expect(res.status, JSON.stringify(res.body)).to.equal(200);
            return res.body[key]!.map((record) => record.id);
          };
          const res = await api.get(path(draftEvent.id), as(who[role]));
          if (readsDraft) expect(listed(res)).to.deep.equal(ofDraft);
          else {
            expectError(res, 400, 'rest_invalid_param');
            expect(res.body.data.params).to.deep.equal({ [param]: `${draftEvent.id} is not an event` });
          }
          const own = await api.get(path(ownDraft.id), as(who[role]));
          if (role === 'author' || readsDraft) expect(listed(own)).to.deep.equal(ofOwn);
          else expectError(own, 400, 'rest_invalid_param');
        });
      }
    }

    for (const role of CALLER_ROLES) {
      const seesHidden = EDITORS.includes(role);
      it(`${role} ${seesHidden ? 'sees' : 'does not see'} hide_from_listings events, unless include names them`, async () => {
        const listedIds = async (query: string) =>
          ((await api.get(`/events?${query}`, as(who[role]))).body.events as { id: number }[]).map((e) => e.id);
        expect(await listedIds(`search=${hiddenWord}`)).to.deep.equal(seesHidden ? [hidden.id] : []);
        expect(await listedIds(`include=${hidden.id}`)).to.deep.equal([hidden.id]);
      });
    }

    it('counts published events only in term counts and has_events, for every caller', async () => {
      for (const role of CALLER_ROLES) {
        const term = await api.get(`/categories/${categoryOfDraft.id}`, as(who[role]));
        expect([term.status, term.body.count], role).to.deep.equal([200, 0]);
        const listedTerms = await api.get(`/categories?include=${categoryOfDraft.id}`, as(who[role]));
        expect([listedTerms.status, listedTerms.body.total], role).to.deep.equal([200, 0]);
        const without = await api.get(
          `/venues?has_events=false&search=${encodeURIComponent(venueOfDraft.venue)}`,
          as(who[role]),
        );
        expect(
          (without.body.venues as { id: number }[]).map((v) => v.id),
          role,
        ).to.deep.equal([venueOfDraft.id]);
        const upcoming = await api.get(
          `/venues?only_with_upcoming=true&search=${encodeURIComponent(venueOfDraft.venue)}`,
          as(who[role]),
        );
        expect([upcoming.status, upcoming.body.total], role).to.deep.equal([200, 0]);
      }
    });
  });
});
