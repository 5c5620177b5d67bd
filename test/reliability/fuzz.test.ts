import { expect } from 'chai';
import fc from 'fast-check';
import { assertConforms } from '../support/conformance';
import { testWorld } from '../support/harness';
import { call, isErrorEnvelope } from './support/http';
import { HOSTILE_SLUG_SEGMENTS, rawJsonBody, SEARCH_SYNTAX } from './support/fuzz/hostile';
import {
  operationsOf,
  requestsFor,
  ROOT,
  type FuzzRequest,
  type Operation,
  type Targets,
} from './support/fuzz/requests';
import { send, type FuzzAnswer } from './support/fuzz/send';
import { changed, snapshot } from './support/fuzz/snapshot';
import { PrivateMongo } from './support/privateServers';
import { openPrivateWorld, type PrivateWorld } from './support/privateWorld';
import { eventBody } from './support/writes';

/** Generated requests per operation (53 operations): FUZZ_RUNS raises it; FUZZ_SEED replays a run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 18);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** No request may take longer; a search, at most SEARCH_MS. */
const SLOW_MS = 5_000;
const SEARCH_MS = 2_000;
const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'];

/** Paths the conformance check can place: under a known root, without dot segments it would normalise. */
function documented(path: string): boolean {
  const pathname = path.split('?')[0]!;
  return /^(\/(en|fr|de))?\/calendar\/events\/v1(\/|$)/.test(pathname) && !/\/(\.|%2e){1,2}(\/|$)/i.test(pathname);
}

interface Violation {
  op: string;
  problem: string;
  request: string;
}

describe('reliability: hostile input on every route (property-based, from the OpenAPI document)', function () {
  this.timeout(600_000);
  let mongo: PrivateMongo;
  let world: PrivateWorld;
  let doc: Record<string, any>;
  let operations: Operation[];
  const targets: Targets = { ids: {}, slugs: {} };
  /** This test's problems (each test reports its own; the figures count them all). */
  let violations: Violation[] = [];
  let violationsSeen = 0;
  const tally = {
    tried: 0,
    '2xx': 0,
    '3xx': 0,
    '4xx': 0,
    '5xx': 0,
    noAnswer: 0,
    rejectedWrites: 0,
    slowestMs: 0,
    slowestSearchMs: 0,
  };

  before(async () => {
    mongo = await PrivateMongo.start('fuzz');
    world = await openPrivateWorld({ mongoUrl: mongo.url, elasticsearchUrl: testWorld().config.elasticsearch.url! });
    doc = (await call(world.baseUrl, 'GET', `${ROOT}/doc`)).body;
    operations = operationsOf(doc);
    await refreshTargets();
  });

  beforeEach(() => {
    violationsSeen += violations.length;
    violations = [];
  });

  after(async () => {
    violationsSeen += violations.length;
    console.log(
      [
        `      figures (seed ${SEED}, ${RUNS} runs per operation, ${operations?.length} operations):`,
        `        inputs tried ${tally.tried}: 2xx ${tally['2xx']}, 3xx ${tally['3xx']}, 4xx ${tally['4xx']}, 5xx ${tally['5xx']}, no answer ${tally.noAnswer}`,
        `        rejected writes checked for side effects ${tally.rejectedWrites}; slowest answer ${Math.round(tally.slowestMs)} ms, slowest search ${Math.round(tally.slowestSearchMs)} ms; violations ${violationsSeen}`,
      ].join('\n'),
    );
    await world?.close();
    await mongo?.cleanup();
  });

  const create = (plural: string, body: Record<string, unknown>) =>
    call(world.baseUrl, 'POST', `${ROOT}/${plural}`, body, { key: world.adminKey });

  /** Live records of every kind (at least two each, recreated when fuzzed writes deleted them). */
  async function refreshTargets(): Promise<void> {
    const bodies: Record<string, (n: number) => Record<string, unknown>> = {
      events: (n) => eventBody(`Fuzz seed event ${n}`, { description: '<p>seed</p>' }),
      venues: (n) => ({ venue: `Fuzz seed hall ${n}` }),
      organizers: (n) => ({ organizer: `Fuzz seed crew ${n}` }),
      categories: (n) => ({ name: `Fuzz seed category ${n}` }),
      tags: (n) => ({ name: `Fuzz seed tag ${n}` }),
    };
    for (const plural of KINDS) {
      const store = world.services.stores[plural as keyof typeof world.services.stores];
      let docs = await store.docs
        .find({ status: { $ne: 'trash' } })
        .sort({ id: -1 })
        .limit(30)
        .toArray();
      for (let n = docs.length; n < 2; n++) expect((await create(plural, bodies[plural]!(n))).status).to.equal(201);
      if (docs.length < 2)
        docs = await store.docs
          .find({ status: { $ne: 'trash' } })
          .sort({ id: -1 })
          .limit(30)
          .toArray();
      targets.ids[plural] = [...new Set(docs.map((d) => d.id))];
      targets.slugs[plural] = [...new Set(docs.map((d) => d.slug))];
    }
  }

  function describeRequest(req: FuzzRequest): string {
    const body =
      req.body === undefined ? '' : ` body(${req.headers['Content-Type'] ?? '?'}): ${String(req.body).slice(0, 200)}`;
    return `${req.method} ${req.path.slice(0, 300)} [${req.note}]${body}`;
  }

  /** Sends one request and checks every oracle; problems are collected, not thrown, to see them all. */
  async function exercise(req: FuzzRequest, expectations: { searchText?: boolean } = {}): Promise<FuzzAnswer> {
    const before = await snapshot(world.services);
    const answer = await send(world.baseUrl, req, SLOW_MS * 2);
    const problems: string[] = [];
    tally.tried++;
    tally.slowestMs = Math.max(tally.slowestMs, answer.ms);
    if (answer.status === 0) {
      tally.noAnswer++;
      problems.push(`no answer: ${answer.text}`);
    } else {
      tally[`${Math.floor(answer.status / 100)}xx` as '2xx'] =
        (tally[`${Math.floor(answer.status / 100)}xx` as '2xx'] ?? 0) + 1;
    }
    if (answer.status >= 500) problems.push(`${answer.status} ${answer.text.slice(0, 200)}`);
    if (answer.status >= 400 && answer.status < 500 && !isErrorEnvelope(answer.body, answer.status))
      problems.push(`${answer.status} outside the error envelope: ${answer.text.slice(0, 200)}`);
    if (answer.ms > SLOW_MS) problems.push(`took ${Math.round(answer.ms)} ms`);
    if (answer.status > 0 && documented(req.path)) {
      const headers = new Headers(Object.entries(answer.headers).map(([k, v]) => [k, String(v)] as [string, string]));
      await assertConforms(req.method, req.path.split('?')[0]!, {
        status: answer.status,
        headers,
        body: answer.body,
      }).catch((err: Error) => problems.push(`does not match the document: ${err.message.slice(0, 300)}`));
    }
    if (answer.status >= 400 || req.method === 'GET') {
      if (req.method !== 'GET') tally.rejectedWrites++;
      const touched = changed(before, await snapshot(world.services));
      if (touched.length)
        problems.push(`${answer.status} ${req.method} changed ${touched.join(', ')} (${answer.text.slice(0, 150)})`);
    }
    if (
      ({} as Record<string, unknown>).polluted !== undefined ||
      Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')
    )
      problems.push('Object.prototype polluted');
    if (expectations.searchText) {
      tally.slowestSearchMs = Math.max(tally.slowestSearchMs, answer.ms);
      if (answer.status !== 200) problems.push(`search answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      if (answer.ms > SEARCH_MS) problems.push(`search took ${Math.round(answer.ms)} ms`);
    }
    for (const problem of problems) violations.push({ op: req.op, problem, request: describeRequest(req) });
    return answer;
  }

  function report(): string {
    const seen = new Set<string>();
    return violations
      .filter((v) => {
        const key = `${v.op} ${v.problem.slice(0, 40)}`;
        return !seen.has(key) && seen.add(key);
      })
      .slice(0, 25)
      .map((v) => `${v.op}: ${v.problem}\n      ${v.request}`)
      .join('\n');
  }

  it('every operation: zero 5xx, 4xx in the error envelope, rejected writes change nothing, bounded time', async () => {
    for (const [i, op] of operations.entries()) {
      if (i % 4 === 0) await refreshTargets();
      await fc.assert(
        fc.asyncProperty(requestsFor(op, doc, targets, world.adminKey), async (req) => {
          await exercise(req);
        }),
        { numRuns: RUNS, seed: SEED + i },
      );
    }
    expect(violations, report()).to.deep.equal([]);
  });

  it('malformed, oversized and polluted bodies on the write routes', async () => {
    await refreshTargets();
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
    const unique = [...new Map(variants.map((v) => [v.note, v])).values()];
    for (const op of writes) {
      const [method, template] = op.split(' ') as [string, string];
      const plural = template.split('/')[1]!;
      const path = `${ROOT}${template}`
        .replace('{id}', String(targets.ids[plural]![0]))
        .replace('{slug}', targets.slugs[plural]![0]!);
      for (const { text, note } of unique) {
        await exercise({
          op,
          method,
          path,
          headers: { Authorization: `Bearer ${world.adminKey}`, 'Content-Type': 'application/json' },
          body: text,
          note,
        });
      }
    }
    expect(violations, report()).to.deep.equal([]);
  });

  it('hostile slugs (.., %2F, NUL, bad percent-encoding) on every slug route', async () => {
    await refreshTargets();
    for (const plural of ['events', 'venues', 'organizers']) {
      for (const segment of HOSTILE_SLUG_SEGMENTS) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          await exercise({
            op: `${method} /${plural}/by-slug/{slug}`,
            method,
            path: `${ROOT}/${plural}/by-slug/${segment}`,
            headers: { Authorization: `Bearer ${world.adminKey}`, 'Content-Type': 'application/json' },
            body: method === 'PATCH' ? JSON.stringify({ description: 'hostile slug' }) : undefined,
            note: `slug ${segment.slice(0, 30)}`,
          });
        }
      }
    }
    expect(violations, report()).to.deep.equal([]);
  });

  it('search strings with query syntax, wildcards and regexes are text, answered in bounded time', async () => {
    const generated = fc.sample(
      fc
        .array(fc.constantFrom(...SEARCH_SYNTAX, 'seed', 'fuzz', ' ', 'AND', 'title:', '*', '"'), {
          minLength: 1,
          maxLength: 6,
        })
        .map((parts) => parts.join(' ')),
      { numRuns: 30, seed: SEED },
    );
    for (const plural of KINDS) {
      for (const search of [...SEARCH_SYNTAX, ...generated]) {
        const answer = await exercise(
          {
            op: `GET /${plural}`,
            method: 'GET',
            path: `${ROOT}/${plural}?search=${encodeURIComponent(search)}&hide_empty=0`,
            headers: {},
            note: `search ${search}`,
          },
          { searchText: true },
        );
        // Pure syntax has no words: as text it matches nothing (as a query, `*` would match everything).
        if (
          SEARCH_SYNTAX.includes(search) &&
          !/[a-z]{2}/i.test(search.replace(/AND|OR|NOT|title|status|draft|query|match_all|_id|_exists_/g, ''))
        ) {
          const total = (answer.body as { total?: number } | undefined)?.total;
          if (total !== 0)
            violations.push({
              op: `GET /${plural}`,
              problem: `search ${JSON.stringify(search)} matched ${total} records`,
              request: search,
            });
        }
      }
    }
    expect(violations, report()).to.deep.equal([]);
  });
});
