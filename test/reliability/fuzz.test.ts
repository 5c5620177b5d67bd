import { expect } from 'chai';
import fc from 'fast-check';
import { testWorld } from '../support/harness';
import { call } from './support/http';
import {
  HOSTILE_DISCOVERY,
  HOSTILE_SLUG_SEGMENTS,
  rawJsonBody,
  SEARCH_SYNTAX,
  WORDLESS_SEARCHES,
} from './support/fuzz/hostile';
import { FuzzOracle } from './support/fuzz/oracle';
import { operationsOf, requestsFor, ROOT, type Operation, type Targets } from './support/fuzz/requests';
import { changed, snapshot } from './support/fuzz/snapshot';
import { KINDS, refreshTargets } from './support/fuzz/targets';
import { PrivateMongo } from './support/privateServers';
import { openPrivateWorld, type PrivateWorld } from './support/privateWorld';

/** Generated requests per operation (55 operations): FUZZ_RUNS raises it; FUZZ_SEED replays a run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 18);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

describe('reliability: hostile input on every route (property-based, from the OpenAPI document)', function () {
  this.timeout(600_000);
  let mongo: PrivateMongo;
  let world: PrivateWorld;
  let oracle: FuzzOracle;
  let doc: Record<string, any>;
  let operations: Operation[];
  const targets: Targets = { ids: {}, slugs: {} };
  const refresh = () => refreshTargets(targets, world.services, world.baseUrl, world.adminKey);
  const asAdmin = () => ({ Authorization: `Bearer ${world.adminKey}`, 'Content-Type': 'application/json' });

  before(async () => {
    mongo = await PrivateMongo.start('fuzz');
    world = await openPrivateWorld({ mongoUrl: mongo.url, elasticsearchUrl: testWorld().config.elasticsearch.url! });
    oracle = new FuzzOracle(world.baseUrl, world.services);
    doc = (await call(world.baseUrl, 'GET', `${ROOT}/doc`)).body;
    operations = operationsOf(doc);
    await refresh();
  });

  beforeEach(() => oracle?.reset());

  after(async () => {
    if (oracle) {
      const t = oracle.tally;
      console.log(
        [
          `      figures (seed ${SEED}, ${RUNS} runs per operation, ${operations.length} operations):`,
          `        inputs tried ${t.tried}: 2xx ${t['2xx']}, 3xx ${t['3xx']}, 4xx ${t['4xx']}, 5xx ${t['5xx']}, no answer ${t.noAnswer}`,
          `        rejected writes checked for side effects ${t.rejectedWrites}; slowest answer ${Math.round(t.slowestMs)} ms, slowest search ${Math.round(t.slowestSearchMs)} ms; violations ${t.violations}`,
        ].join('\n'),
      );
    }
    await world?.close();
    await mongo?.cleanup();
  });

  it('self-check: the side-effect fingerprint sees a change to any record', async () => {
    const before = await snapshot(world.services);
    const tag = await world.services.stores.tags.get(targets.ids.tags![0]!);
    await world.services.stores.tags.update(tag!, 'en', { description: 'changed behind the API' });
    expect(changed(before, await snapshot(world.services))).to.deep.equal(['tags']);
  });

  it('every operation: zero 5xx, 4xx in the error envelope, rejected writes change nothing, bounded time', async () => {
    for (const [i, op] of operations.entries()) {
      if (i % 4 === 0) await refresh();
      await fc.assert(
        fc.asyncProperty(requestsFor(op, doc, targets, world.adminKey), async (req) => {
          await oracle.exercise(req);
        }),
        { numRuns: RUNS, seed: SEED + i },
      );
    }
    expect(oracle.violations, oracle.report()).to.deep.equal([]);
  });

  it('malformed, oversized and polluted bodies on the write routes', async () => {
    await refresh();
    const writes = [
      'POST /events',
      'PATCH /events/{id}',
      'PUT /events/by-slug/{slug}',
      'POST /venues/{id}',
      'POST /categories',
      'PATCH /tags/{id}',
    ];
    const variants = fc.sample(rawJsonBody({ title: 'Valid title', name: 'Valid name', venue: 'Valid hall' }), {
      numRuns: 400,
      seed: SEED,
    });
    const everyVariant = [...new Map(variants.map((v) => [v.note, v])).values()];
    for (const op of writes) {
      const [method, template] = op.split(' ') as [string, string];
      const plural = template.split('/')[1]!;
      const path = `${ROOT}${template}`
        .replace('{id}', String(targets.ids[plural]![0]))
        .replace('{slug}', targets.slugs[plural]![0]!);
      for (const { text, note } of everyVariant)
        await oracle.exercise({ op, method, path, headers: asAdmin(), body: text, note });
    }
    expect(oracle.violations, oracle.report()).to.deep.equal([]);
  });

  it('hostile recurrence rules on event writes: a 400 naming recurrence or a stored series, never a 5xx', async () => {
    await refresh();
    const part = fc.oneof(
      fc.constantFrom('FREQ=SECONDLY', 'FREQ=MINUTELY', 'FREQ=HOURLY', 'FREQ=DAILY', 'FREQ=YEARLY', 'FREQ=weekly'),
      fc.constantFrom(
        'COUNT=100000000',
        'UNTIL=99991231',
        'UNTIL=20270101T000000',
        'INTERVAL=0',
        'WKST=XX',
        'X-NAME=1',
      ),
      fc
        .tuple(
          fc.constantFrom('BYSETPOS', 'BYYEARDAY', 'BYMONTHDAY', 'BYWEEKNO', 'BYHOUR', 'BYDAY', 'BYMONTH'),
          fc.array(fc.integer({ min: -400, max: 400 }), { minLength: 1, maxLength: 400 }),
        )
        .map(([name, values]) => `${name}=${values.join(',')}`),
      fc.string({ maxLength: 20 }),
    );
    const line = fc.oneof(
      fc.array(part, { minLength: 1, maxLength: 6 }).map((parts) => `RRULE:${parts.join(';')}`),
      fc.constantFrom(
        'EXDATE:2027-01-12',
        'EXDATE;TZID=Mars/Base:20270112T100000',
        'RDATE;VALUE=PERIOD:20270112T100000/PT1H',
        'RDATE:99991231T000000Z',
        'EXDATE;VALUE=DATE:20270229',
      ),
    );
    const bodies = fc.sample(fc.array(line, { minLength: 1, maxLength: 3 }), { numRuns: 60, seed: SEED });
    const path = `${ROOT}/events/${targets.ids.events![0]}`;
    for (const recurrence of bodies)
      await oracle.exercise({
        op: 'PATCH /events/{id}',
        method: 'PATCH',
        path,
        headers: asAdmin(),
        body: JSON.stringify({ recurrence }),
        note: `recurrence ${JSON.stringify(recurrence).slice(0, 60)}`,
      });
    expect(oracle.violations, oracle.report()).to.deep.equal([]);
  });

  it('hostile slugs (.., %2F, NUL, bad percent-encoding) on every slug route', async () => {
    await refresh();
    for (const plural of ['events', 'venues', 'organizers']) {
      for (const segment of HOSTILE_SLUG_SEGMENTS) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          await oracle.exercise({
            op: `${method} /${plural}/by-slug/{slug}`,
            method,
            path: `${ROOT}/${plural}/by-slug/${segment}`,
            headers: asAdmin(),
            body: method === 'PATCH' ? JSON.stringify({ description: 'hostile slug' }) : undefined,
            note: `slug ${segment.slice(0, 30)}`,
          });
        }
      }
    }
    expect(oracle.violations, oracle.report()).to.deep.equal([]);
  });

  it('hostile conditional, negotiation and encoding headers on every read, feeds included', async () => {
    await refresh();
    const event = targets.ids.events![0]!;
    const reads = ['/events', `/events/${event}`, '/events.ics?search=seed', `/events/${event}.ics`, '/venues', ''];
    const headers = fc.sample(
      fc.record(
        {
          'If-None-Match': fc.constantFrom('*', 'W/""', '"', 'W/"x", *', ',,,', 'W/'.repeat(500), '\u00ff', 'W/"a"'),
          'If-Modified-Since': fc.constantFrom('yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT', '9999999999', ''),
          Accept: fc.constantFrom(
            'text/calendar',
            'text/calendar;q=0',
            'text/*',
            '*/*;q=x',
            'application/json, text/calendar',
            ';;;',
          ),
          'Accept-Encoding': fc.constantFrom(
            'br;q=0, gzip',
            'zstd',
            '*',
            'identity;q=0',
            'gzip;q=abc',
            'br, gzip, deflate',
          ),
        },
        { requiredKeys: [] },
      ),
      { numRuns: 40, seed: SEED },
    );
    for (const path of reads) {
      for (const [i, sent] of headers.entries()) {
        const op = path.includes('.ics')
          ? path.startsWith('/events.ics')
            ? 'GET /events.ics'
            : 'GET /events/{id}.ics'
          : `GET ${path.replace(/\/\d+/, '/{id}') || '/'}`;
        await oracle.exercise({
          op,
          method: 'GET',
          path: `${ROOT}${path}`,
          headers: sent as Record<string, string>,
          note: `headers #${i}`,
        });
      }
    }
    expect(oracle.violations, oracle.report()).to.deep.equal([]);
  });

  it('search strings with query syntax, wildcards and regexes are text, answered in bounded time', async () => {
    const words = fc.constantFrom(...SEARCH_SYNTAX, 'seed', 'fuzz', ' ', 'AND', 'title:', '*', '"');
    const generated = fc.sample(
      fc.array(words, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' ')),
      { numRuns: 30, seed: SEED },
    );
    for (const plural of KINDS) {
      for (const search of [...SEARCH_SYNTAX, ...generated]) {
        const path = `${ROOT}/${plural}?search=${encodeURIComponent(search)}&hide_empty=0`;
        const op = `GET /${plural}`;
        const answer = await oracle.exercise(
          { op, method: 'GET', path, headers: {}, note: `search ${search}` },
          { searchText: true },
        );
        const total = (answer.body as { total?: number } | undefined)?.total;
        if (WORDLESS_SEARCHES.includes(search) && total !== 0)
          oracle.flag(op, `search ${JSON.stringify(search)} matched ${total} records`, path);
      }
    }
    expect(oracle.violations, oracle.report()).to.deep.equal([]);
  });

  it('type-ahead text with query syntax is text too: /suggest answers 200 in bounded time, wordless text suggests nothing', async () => {
    for (const search of SEARCH_SYNTAX) {
      for (const prefix of ['', '/fr']) {
        const path = `${prefix}${ROOT}/suggest?search=${encodeURIComponent(search)}&per_page=20`;
        const op = 'GET /suggest';
        const answer = await oracle.exercise(
          { op, method: 'GET', path, headers: {}, note: `suggest ${search}` },
          { searchText: true },
        );
        const found = (answer.body as { suggestions?: unknown[] } | undefined)?.suggestions;
        if (WORDLESS_SEARCHES.includes(search) && found?.length !== 0)
          oracle.flag(op, `suggest ${JSON.stringify(search)} suggested ${found?.length} records`, path);
      }
    }
    expect(oracle.violations, oracle.report()).to.deep.equal([]);
  });

  it('discovery parameters at and past their edges, alone and combined, as every role', async () => {
    const values = Object.entries(HOSTILE_DISCOVERY).flatMap(([name, list]) => list.map((value) => `${name}=${value}`));
    const combined = fc.sample(fc.array(fc.constantFrom(...values), { minLength: 2, maxLength: 5 }), {
      numRuns: 40,
      seed: SEED,
    });
    const queries = [...values, ...combined.map((parts) => parts.join('&'))];
    for (const [i, query] of queries.entries()) {
      const headers: Record<string, string> = i % 3 === 0 ? { Authorization: `Bearer ${world.adminKey}` } : {};
      const path = `${ROOT}/events?${query}&histogram=day&status=publish`;
      await oracle.exercise({
        op: 'GET /events',
        method: 'GET',
        path,
        headers,
        note: `discovery ${query.slice(0, 60)}`,
      });
    }
    expect(oracle.violations, oracle.report()).to.deep.equal([]);
  });
});
