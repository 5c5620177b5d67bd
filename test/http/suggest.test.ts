import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { as, callers, type Caller, type Callers } from '../support/access';
import { conforming } from '../support/conformance';
import { expectInvalid, expectMissing } from '../support/errors';
import { create, daysFromNow, searchReady, settle } from '../support/lists';

/** A word of letters only, new to the index: every suggestion of this file begins with it. */
function letters(length: number): string {
  return Array.from({ length }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
}

type Suggestion = { kind: string; id: number; text: string; rest_url: string };

/** EXTENSIONS part 15 over HTTP: prefixes, one typo, languages, ranking and access per role. */
describe('GET /suggest: type-ahead', function () {
  this.timeout(120_000);
  // The first three letters are fixed and distinct from the rest: typos are made after them.
  const word = `zqx${letters(7)}`;
  const Word = word[0]!.toUpperCase() + word.slice(1);
  const ids: Record<string, number> = {};
  let who: Callers;

  const suggest = async (query: string, caller?: Caller, prefix = '') => {
    const res = await request('GET', `${prefix}${ROOT}/suggest?${query}`, undefined, caller ? as(caller) : {});
    expect(res.status, `suggest ${query}: ${JSON.stringify(res.body)}`).to.equal(200);
    return res.body.suggestions as Suggestion[];
  };
  const keys = (suggestions: Suggestion[]) => suggestions.map((s) => `${s.kind}:${s.id}`);

  before(async () => {
    await searchReady();
    who = await callers();
    const event = async (name: string, title: string, fields: Record<string, unknown> = {}, days = 30) => {
      ids[name] = (
        await create('/events', {
          title,
          start_date: daysFromNow(days, '19:00:00'),
          end_date: daysFromNow(days, '22:00:00'),
          ...fields,
        })
      ).id;
    };
    await event('night', `${Word} Jazz Night`);
    await event('draft', `${Word} Draft Gala`, { status: 'draft' });
    await event('protected', `${Word} Secret Soirée`, { password: 'open sesame' });
    await event('hidden', `${Word} Hidden Rehearsal`, { hide_from_listings: true });
    await event('past', `${Word} Past Fair`, {}, -30);
    await event('trashed', `${Word} Cancelled Show`);
    await event('french', `${Word} Elephant Parade`);
    const fr = await api.patch(`/events/${ids.french}?i18n_language=fr`, { title: `Soirée ${Word} Éléphant` });
    expect(fr.status, JSON.stringify(fr.body)).to.equal(200);
    ids.ownDraft = (
      await api.post(
        '/events',
        {
          title: `${Word} Author Draft`,
          start_date: daysFromNow(30, '19:00:00'),
          end_date: daysFromNow(30, '22:00:00'),
          status: 'draft',
        },
        as(who.author),
      )
    ).body.id;
    ids.cafe = (await create('/venues', { venue: `Café ${Word}` })).id;
    ids.draftVenue = (await create('/venues', { venue: `${Word} Hidden Hall`, status: 'draft' })).id;
    ids.organizer = (await create('/organizers', { organizer: `${Word} Collective` })).id;
    ids.category = (await create('/categories', { name: `${Word} Jazz` })).id;
    ids.tag = (await create('/tags', { name: `${Word}ian` })).id;
    expect((await api.delete(`/events/${ids.trashed}`)).status).to.equal(200);
    await settle();
  });

  const visibleTo: Record<string, string[]> = {
    anonymous: [
      'events:night',
      'events:protected',
      'events:french',
      'venues:cafe',
      'organizers:organizer',
      'categories:category',
      'tags:tag',
    ],
  };
  visibleTo.author = [...visibleTo.anonymous!, 'events:ownDraft'];
  visibleTo.editor = [...visibleTo.author!, 'events:draft', 'events:hidden', 'venues:draftVenue'];
  const expected = (role: string) =>
    visibleTo[role]!.map((key) => {
      const [kind, name] = key.split(':');
      return `${kind}:${ids[name!]}`;
    }).sort();

  it('finds by prefix exactly what each role lists: no draft, hidden, past or trashed record to those who do not list it', async () => {
    for (const role of ['anonymous', 'author', 'editor'] as const) {
      const found = await suggest(`search=${word.slice(0, 6)}&per_page=20`, who[role]);
      expect(keys(found).sort(), role).to.deep.equal(expected(role));
    }
  });

  it('answers in the documented shape, with the record rest_url and the name as listed', async () => {
    const res = await conforming.get(`/suggest?search=${word}%20jaz`);
    expect(res.status).to.equal(200);
    const suggestions = res.body.suggestions as Suggestion[];
    expect(keys(suggestions).sort()).to.deep.equal([`categories:${ids.category}`, `events:${ids.night}`].sort());
    const night = suggestions.find((s) => s.kind === 'events')!;
    expect(night.text).to.equal(`${Word} Jazz Night`);
    expect(night.rest_url).to.match(new RegExp(`${ROOT}/events/${ids.night}$`));
    const read = await request('GET', new URL(night.rest_url).pathname);
    expect(read.status).to.equal(200);
  });

  it('forgives one typo past the first three letters, not within them, nor two', async () => {
    const typo = `${word.slice(0, 5)}${word[5] === 'a' ? 'b' : 'a'}${word.slice(6)}`;
    expect(typo).to.not.equal(word);
    expect(keys(await suggest(`search=${typo}&kinds=organizers`))).to.deep.equal([`organizers:${ids.organizer}`]);
    const missing = `${word.slice(0, 6)}${word.slice(7)}`;
    expect(keys(await suggest(`search=${missing}%20colle&kinds=organizers`))).to.deep.equal([
      `organizers:${ids.organizer}`,
    ]);
    const early = `${word[0]}${word[1] === 'a' ? 'b' : 'a'}${word.slice(2)}`;
    expect(await suggest(`search=${early}`)).to.deep.equal([]);
    const other = (letter: string) => (letter === 'a' ? 'b' : 'a');
    const two = `${word.slice(0, 4)}${other(word[4]!)}${other(word[5]!)}${word.slice(6)}`;
    expect(await suggest(`search=${two}&kinds=organizers`)).to.deep.equal([]);
  });

  it('folds accents and case both ways', async () => {
    expect(keys(await suggest(`search=CAFE%20${word.toUpperCase().slice(0, 5)}`))).to.deep.equal([
      `venues:${ids.cafe}`,
    ]);
    expect(keys(await suggest(`search=caf%C3%A9%20${word.slice(0, 4)}`))).to.deep.equal([`venues:${ids.cafe}`]);
  });

  it('suggests in the request language: French titles under /fr, not at the English root', async () => {
    const fr = await suggest(`search=${word}%20elep`, undefined, '/fr');
    expect(fr.map((s) => [s.id, s.text])).to.deep.equal([[ids.french, `Soirée ${Word} Éléphant`]]);
    expect(fr[0]!.rest_url).to.contain(`/fr${ROOT}/events/${ids.french}`);
    expect(keys(await suggest(`search=soir%C3%A9e%20${word}`, undefined, '/fr'))).to.include(`events:${ids.french}`);
    expect(await suggest(`search=${word}%20elep&i18n_language=fr`)).to.have.length(1);
    const en = await suggest(`search=${word}%20eleph`);
    expect(en.map((s) => s.text)).to.deep.equal([`${Word} Elephant Parade`]);
  });

  it('ranks names beginning with the text typed first, then by name; kinds and per_page select', async () => {
    const all = await suggest(`search=${word}&per_page=20`);
    const cafe = all.findIndex((s) => s.kind === 'venues');
    expect(cafe, 'Café … comes after every name beginning with the word').to.equal(all.length - 1);
    const beginning = all.slice(0, cafe).map((s) => s.text);
    expect(beginning).to.deep.equal([...beginning].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    const typo = await suggest(`search=${word.slice(0, 8)}x&per_page=20`);
    expect(typo.map((s) => s.kind)).to.include('events');
    const two = await suggest(`search=${word}&per_page=2`);
    expect(two).to.deep.equal(all.slice(0, 2));
    const onlyTerms = await suggest(`search=${word}&kinds=tags,categories`);
    expect(keys(onlyTerms).sort()).to.deep.equal([`categories:${ids.category}`, `tags:${ids.tag}`].sort());
    const capped = await suggest(`search=zq&per_page=500`, who.editor);
    expect(capped.length).to.be.at.most(20);
    const defaulted = await suggest(`search=${word}`, who.editor);
    expect(defaulted).to.have.length(8);
  });

  it('suggests a series once, with its own page, however many of its occurrences match', async () => {
    const series = `zqy${letters(7)}`;
    const id = (
      await create('/events', {
        title: `${series} Daily Class`,
        start_date: daysFromNow(2, '09:00:00'),
        end_date: daysFromNow(2, '10:00:00'),
        recurrence: ['RRULE:FREQ=DAILY;COUNT=20'],
      })
    ).id as number;
    const single = (
      await create('/events', {
        title: `${series} Workshop`,
        start_date: daysFromNow(3, '09:00:00'),
        end_date: daysFromNow(3, '10:00:00'),
      })
    ).id as number;
    await settle();
    const found = await suggest(`search=${series}&kinds=events&per_page=20`);
    expect(keys(found)).to.deep.equal([`events:${id}`, `events:${single}`]);
    expect(found[0]!.rest_url).to.match(new RegExp(`${ROOT}/events/${id}$`));
  });

  it('an unpublished record leaves the suggestions as soon as lists lose it (an answer just kept included)', async () => {
    expect(keys(await suggest(`search=${word}&kinds=organizers`))).to.deep.equal([`organizers:${ids.organizer}`]);
    const res = await api.patch(
      `/organizers/${ids.organizer}`,
      { status: 'draft' },
      { key: true, headers: { Prefer: 'wait-for-index' } },
    );
    expect(res.status).to.equal(200);
    await settle();
    expect(await suggest(`search=${word}&kinds=organizers`)).to.deep.equal([]);
    expect(keys(await suggest(`search=${word}&kinds=organizers`, who.editor))).to.deep.equal([
      `organizers:${ids.organizer}`,
    ]);
  });

  it('bad values are 400s naming the parameter', async () => {
    expectMissing(await api.get('/suggest?kinds=events'), ['search']);
    const bad: [string, string][] = [
      ['search=', 'search'],
      ['search=%20%20', 'search'],
      [`search=${'a'.repeat(101)}`, 'search'],
      ['search=ja&kinds=events,people', 'kinds'],
      ['search=ja&per_page=0', 'per_page'],
      ['search=ja&per_page=two', 'per_page'],
      ['search=ja&i18n_language=xx', 'i18n_language'],
    ];
    for (const [query, param] of bad) expectInvalid(await api.get(`/suggest?${query}`), param);
  });
});

describe('discovery parameters in the namespace index and the OpenAPI document', () => {
  const NEW_PARAMETERS: Record<string, string[]> = {
    events: ['facets', 'histogram', 'tz', 'geo_grid', 'geoloc_bounds'],
    suggest: ['search', 'kinds', 'per_page'],
  };

  it('shows each new parameter with an example in both', async () => {
    const index = await api.get('');
    const doc = await api.get('/doc');
    for (const [path, names] of Object.entries(NEW_PARAMETERS)) {
      const endpoint = index.body.routes[`${ROOT}/${path}`].endpoints.find((e: { methods: string[] }) =>
        e.methods.includes('GET'),
      );
      const parameters = doc.body.paths[`/${path}`].get.parameters as { name: string; schema: { example?: unknown } }[];
      for (const name of names) {
        expect(endpoint.args[name]?.example, `namespace index: ${path} ${name}`).to.not.equal(undefined);
        const documented = parameters.find((p) => p.name === name);
        expect(documented?.schema.example, `OpenAPI: ${path} ${name}`).to.not.equal(undefined);
      }
    }
  });
});
