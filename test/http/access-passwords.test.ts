import { expect } from 'chai';
import { as, callers, expectNoSecrets, recordOf, type Callers, type Caller } from '../support/access';
import { expectError, expectInvalid } from '../support/errors';
import { api } from '../support/api';
import { testWorld } from '../support/harness';
import { daysFromNow, searchReady, settle, unique } from '../support/lists';

/**
 * Event passwords (CONTRACT part 6): right / wrong / missing password on ID and slug reads for
 * every role and the owner; lists and search blank or skip the protected text, whatever the
 * caller sends; the password or its hash never appears in any response.
 */

const PASSWORD = 'open sesame';
type Reader = 'anonymous' | 'contributor' | 'author' | 'editor' | 'administrator' | 'owner';
const READERS: Reader[] = ['anonymous', 'contributor', 'author', 'editor', 'administrator', 'owner'];
/** Who reads a protected event without its password: editors and above, and its own author. */
const BYPASSES: Record<Reader, boolean> = {
  anonymous: false,
  contributor: false,
  author: false,
  editor: true,
  administrator: true,
  owner: true,
};
const GIVEN = {
  missing: '',
  wrong: '&password=open%20sesam',
  right: `&password=${encodeURIComponent(PASSWORD)}`,
  empty: '&password=',
} as const;
const PROTECTED_FIELDS = ['description', 'excerpt', 'cost', 'cost_details', 'venue', 'organizer', 'website'];

describe('access: event passwords', () => {
  let who: Callers;
  const titleWord = unique('guarded');
  const secretWord = unique('secretword');
  const venueWord = unique('secretvenue');
  const organizerWord = unique('secretorganizer');
  const excerptWord = unique('secretexcerpt');
  let event: any;
  let venue: any;
  let organizer: any;
  let created: any;
  const reader = (name: Reader): Caller => (name === 'owner' ? who.stranger : who[name]);

  before(async function () {
    this.timeout(60_000);
    who = await callers();
    await searchReady();
    venue = await recordOf('venues', `${venueWord} hall`, who.stranger.userId, 'publish');
    organizer = await recordOf('organizers', `${organizerWord} club`, who.stranger.userId, 'publish');
    // Created by its owner (an author), who gets the whole record back.
    created = await api.post(
      '/events',
      {
        title: `${titleWord} party`,
        description: `<p>The ${secretWord} location</p>`,
        excerpt: `Bring the ${excerptWord}`,
        cost: '25',
        website: 'https://example.org/private',
        start_date: daysFromNow(10, '18:00:00'),
        end_date: daysFromNow(10, '20:00:00'),
        venue: venue.id,
        organizer: [organizer.id],
        password: PASSWORD,
      },
      as(who.stranger),
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    event = created.body;
    await settle();
  });

  it("counts a protected event towards its venue's and organizer's has_events and only_with_upcoming for editors and above only", async () => {
    const listed = async (plural: string, word: string, filter: string, caller?: Caller) =>
      (
        (await api.get(`/${plural}?search=${word}&${filter}`, caller ? as(caller) : {})).body[plural] as {
          id: number;
        }[]
      ).map((r) => r.id);
    for (const name of READERS) {
      // Its author reads it whole, but lists count for everyone of a role alike: as an author's.
      const counted = name === 'editor' || name === 'administrator';
      for (const [plural, word, record] of [
        ['venues', venueWord, venue],
        ['organizers', organizerWord, organizer],
      ] as const) {
        const where = `${name}: ${plural}`;
        const caller = reader(name);
        expect(await listed(plural, word, 'has_events=true', caller), where).to.deep.equal(counted ? [record.id] : []);
        expect(await listed(plural, word, 'has_events=false', caller), where).to.deep.equal(counted ? [] : [record.id]);
        expect(await listed(plural, word, 'only_with_upcoming=true', caller), where).to.deep.equal(
          counted ? [record.id] : [],
        );
      }
    }
    // Without its password the event shows its venue and organizer: they have events again.
    const open = await api.post(
      '/events',
      {
        title: `${titleWord} open`,
        start_date: daysFromNow(12, '18:00:00'),
        end_date: daysFromNow(12, '20:00:00'),
        venue: venue.id,
        organizer: [organizer.id],
        password: PASSWORD,
      },
      as(who.stranger),
    );
    await settle();
    expect(await listed('venues', venueWord, 'has_events=true')).to.deep.equal([]);
    await api.patch(`/events/${open.body.id}`, { password: null }, as(who.stranger));
    await settle();
    expect(await listed('venues', venueWord, 'has_events=true')).to.deep.equal([venue.id]);
    expect(await listed('organizers', organizerWord, 'only_with_upcoming=true')).to.deep.equal([organizer.id]);
    await api.delete(`/events/${open.body.id}?force=true`);
    await settle();
  });

  it('lets shared caches keep only what any anonymous caller may read', async () => {
    const withoutPassword = await api.get(`/events/${event.id}`);
    expect(withoutPassword.headers.get('cache-control')).to.equal(null);
    const list = await api.get('/events');
    expect(list.headers.get('cache-control')).to.equal('public, no-cache');
    const refused = await api.get(`/events/${event.id}?password=guess`);
    expect(refused.status).to.equal(403);
    expect(refused.headers.get('cache-control')).to.equal('private, no-store');
  });

  it('stores a salted hash only and never returns the password, even to its owner', async () => {
    expectNoSecrets(created.body, 'create');
    expect(created.body.description).to.include(secretWord);
    const doc = await testWorld().services.stores.events.docs.findOne({ id: event.id });
    expect(doc!.passwordHash).to.match(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(JSON.stringify(doc)).not.to.include(PASSWORD);
    for (const name of READERS) {
      const res = await api.get(`/events/${event.id}?password=${encodeURIComponent(PASSWORD)}`, as(reader(name)));
      expect(res.status, name).to.equal(200);
      expect(res.body.description, name).to.include(secretWord);
      expectNoSecrets(res.body, name);
    }
  });

  for (const name of READERS) {
    for (const [given, query] of Object.entries(GIVEN)) {
      for (const route of ['id', 'slug'] as const) {
        const allowed = BYPASSES[name] || given === 'right';
        it(`${name} reads the protected event by ${route} with the ${given} password → ${allowed ? 200 : 403}`, async () => {
          const path = route === 'id' ? `/events/${event.id}` : `/events/by-slug/${event.slug}`;
          const res = await api.get(`${path}?i18n_language=en${query}`, as(reader(name)));
          if (!allowed) {
            expectError(res, 403, 'event-password-protected', `${name} ${given}`);
            expect(JSON.stringify(res.body)).not.to.include(secretWord);
            return;
          }
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          expect(res.body.id).to.equal(event.id);
          expect(res.body.description).to.include(secretWord);
          expect(res.body.venue).to.include({ id: venue.id });
          expectNoSecrets(res.body, name);
          // Unlocked by a key or a password: the caller's alone, never kept by a shared cache.
          expect(res.headers.get('cache-control'), name).to.equal('private, no-store');
        });
      }
    }
  }

  it('checks the status before the password: a protected draft stays not accessible with the right password', async () => {
    const draft = await recordOf('events', unique('guarded draft'), who.stranger.userId, 'draft', {
      password: PASSWORD,
    });
    const res = await api.get(`/events/${draft.id}?password=${encodeURIComponent(PASSWORD)}`);
    expectError(res, 403, 'event-not-accessible');
    const owner = await api.get(`/events/${draft.id}`, as(who.stranger));
    expect([owner.status, owner.body.id]).to.deep.equal([200, draft.id]);
  });

  for (const name of READERS) {
    for (const given of ['missing', 'right'] as const) {
      const blanked = !BYPASSES[name];
      it(`${name} lists the protected event ${blanked ? 'with its protected fields blanked' : 'whole'} (${given} password)`, async () => {
        const res = await api.get(`/events?search=${titleWord}${GIVEN[given]}`, as(reader(name)));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.events.map((e: { id: number }) => e.id)).to.deep.equal([event.id]);
        const listed = res.body.events[0];
        expectNoSecrets(listed, name);
        expect(listed.title).to.equal(`${titleWord} party`);
        if (blanked) {
          expect(listed).to.include({ description: '', excerpt: '', cost: '', website: '' });
          expect(listed.venue).to.deep.equal([]);
          expect(listed.organizer).to.deep.equal([]);
          expect(listed.cost_details).to.include({ currency_symbol: '' });
          expect(listed.cost_details.values).to.deep.equal([]);
          expect(JSON.stringify(listed)).not.to.include(secretWord).and.not.to.include(venueWord);
        } else {
          expect(listed.description).to.include(secretWord);
          expect(listed.venue).to.include({ id: venue.id });
          expect(listed.cost).to.not.equal('');
          expect(Object.keys(listed)).to.include.members(PROTECTED_FIELDS);
        }
      });
    }
  }

  for (const name of READERS) {
    it(`${name}: search never matches the protected text (description, excerpt, venue, organizer)`, async () => {
      for (const word of [secretWord, excerptWord, venueWord, organizerWord]) {
        const res = await api.get(`/events?search=${word}${GIVEN.right}`, as(reader(name)));
        expect([res.status, res.body.total], `${name} ${word}`).to.deep.equal([200, 0]);
      }
      // The venue itself is public and found in the venue list.
      const venues = await api.get(`/venues?search=${venueWord}`, as(reader(name)));
      expect(venues.body.venues.map((v: { id: number }) => v.id)).to.deep.equal([venue.id]);
    });
  }

  for (const name of READERS) {
    it(`${name}: the venue and organizer lists of the protected event are ${BYPASSES[name] ? 'its own' : 'empty'}`, async () => {
      for (const kind of ['venues', 'organizers']) {
        const res = await api.get(`/${kind}?event=${event.id}${GIVEN.right}`, as(reader(name)));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.total, `${name} ${kind}`).to.equal(BYPASSES[name] ? 1 : 0);
      }
    });
  }

  describe('filters on what is blanked do not match the protected event either', () => {
    before(async function () {
      this.timeout(30_000);
      const placed = await api.patch(`/venues/${venue.id}`, { geo_lat: 64.1466, geo_lng: -21.9426 }, as(who.stranger));
      expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
      await settle();
    });

    for (const name of READERS) {
      it(`${name}: venue, organizer and geo filters ${BYPASSES[name] ? 'match' : 'do not match'} it`, async () => {
        const near = 'geoloc_lat=64.1466&geoloc_lng=-21.9426&geoloc_radius=1&geoloc_unit=km';
        for (const filter of [`venue=${venue.id}`, `organizer=${organizer.id}`, near, `${near}&orderby=distance`]) {
          const res = await api.get(`/events?search=${titleWord}&${filter}${GIVEN.right}`, as(reader(name)));
          expect([res.status, res.body.total], `${name} ${filter}`).to.deep.equal([200, BYPASSES[name] ? 1 : 0]);
        }
        // Without such a filter the event stays listed (blanked) for everyone.
        const listed = await api.get(`/events?search=${titleWord}`, as(reader(name)));
        expect(listed.body.total, name).to.equal(1);
      });
    }
  });

  it('lets the owner or an editor change and delete a protected event without the password', async () => {
    const own = await api.patch(`/events/${event.id}`, { excerpt: `Still the ${excerptWord}` }, as(who.stranger));
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    expectNoSecrets(own.body);
    const other = await api.patch(`/events/${event.id}`, { excerpt: 'x' }, as(who.author));
    expectError(other, 403, 'rest_forbidden');
    const copy = await recordOf('events', unique('guarded copy'), who.stranger.userId, 'publish', {
      password: PASSWORD,
    });
    const trashed = await api.delete(`/events/${copy.id}`, as(who.editor));
    expect([trashed.status, trashed.body.status]).to.deep.equal([200, 'trash']);
    expectNoSecrets(trashed.body);
  });

  it('checks a new password on update as on create: printable text, 255 characters at most', async () => {
    for (const password of ['line\u0001break', 'p'.repeat(256)]) {
      const refused = await api.patch(`/events/${event.id}`, { password }, as(who.stranger));
      expectInvalid(refused, 'password');
      expect(JSON.stringify(refused.body), 'the refused password is not echoed').not.to.include(password.slice(0, 8));
    }
    const res = await api.get(`/events/${event.id}?password=${encodeURIComponent(PASSWORD)}`);
    expect(res.status, 'the old password still opens it').to.equal(200);
  });
});
