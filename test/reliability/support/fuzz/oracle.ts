import { assertConforms } from '../../../support/conformance';
import type { Services } from '../../../../src/services/container';
import { isErrorEnvelope } from '../http';
import type { FuzzRequest } from './requests';
import { send, type FuzzAnswer } from './send';
import { changed, snapshot } from './snapshot';

/**
 * No request may take longer; a search, at most SEARCH_MS (a hostile text that made the search
 * costly would take far longer; the margin is for a machine busy with the other suites).
 */
const SLOW_MS = 5_000;
const SEARCH_MS = 3_000;

interface Violation {
  op: string;
  problem: string;
  request: string;
}

/** Paths the conformance check can place: under a known root, without dot segments it would normalise. */
function documented(path: string): boolean {
  const pathname = path.split('?')[0]!;
  return /^(\/(en|fr|de))?\/calendar\/events\/v1(\/|$)/.test(pathname) && !/\/(\.|%2e){1,2}(\/|$)/i.test(pathname);
}

function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined ? '' : ` body(${req.headers['Content-Type'] ?? '?'}): ${String(req.body).slice(0, 200)}`;
  return `${req.method} ${req.path.slice(0, 300)} [${req.note}]${body}`;
}

/**
 * Sends fuzzed requests one at a time and checks each answer: some answer in bounded time, no
 * 5xx, 4xx in the error envelope and as the OpenAPI document says, a rejected request (or any
 * read) changes no collection, Object.prototype untouched. Problems are collected, not thrown,
 * so that one run shows them all.
 */
export class FuzzOracle {
  violations: Violation[] = [];
  readonly tally = {
    tried: 0,
    '2xx': 0,
    '3xx': 0,
    '4xx': 0,
    '5xx': 0,
    noAnswer: 0,
    rejectedWrites: 0,
    slowestMs: 0,
    slowestSearchMs: 0,
    violations: 0,
  };

  constructor(
    private readonly baseUrl: string,
    private readonly services: Services,
  ) {}

  /** Starts a new list of violations (each test reports its own; the tally counts them all). */
  reset(): void {
    this.violations = [];
  }

  flag(op: string, problem: string, request: string): void {
    this.violations.push({ op, problem, request });
    this.tally.violations++;
  }

  async exercise(req: FuzzRequest, expectations: { searchText?: boolean } = {}): Promise<FuzzAnswer> {
    const before = await snapshot(this.services);
    const answer = await send(this.baseUrl, req, SLOW_MS * 2);
    const problems: string[] = [];
    const { tally } = this;
    tally.tried++;
    tally.slowestMs = Math.max(tally.slowestMs, answer.ms);
    if (answer.status === 0) {
      tally.noAnswer++;
      problems.push(`no answer: ${answer.text}`);
    } else {
      const kind = `${Math.floor(answer.status / 100)}xx` as '2xx';
      tally[kind] = (tally[kind] ?? 0) + 1;
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
      const touched = changed(before, await snapshot(this.services));
      if (touched.length)
        problems.push(`${answer.status} ${req.method} changed ${touched.join(', ')} (${answer.text.slice(0, 150)})`);
    }
    if (Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')) problems.push('Object.prototype polluted');
    if (expectations.searchText) {
      tally.slowestSearchMs = Math.max(tally.slowestSearchMs, answer.ms);
      if (answer.status !== 200) problems.push(`search answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      if (answer.ms > SEARCH_MS) problems.push(`search took ${Math.round(answer.ms)} ms`);
    }
    for (const problem of problems) this.flag(req.op, problem, describeRequest(req));
    return answer;
  }

  /** The first distinct violations, for the failure message. */
  report(): string {
    const seen = new Set<string>();
    return this.violations
      .filter((v) => {
        const key = `${v.op} ${v.problem.slice(0, 40)}`;
        return !seen.has(key) && seen.add(key);
      })
      .slice(0, 25)
      .map((v) => `${v.op}: ${v.problem}\n      ${v.request}`)
      .join('\n');
  }
}
