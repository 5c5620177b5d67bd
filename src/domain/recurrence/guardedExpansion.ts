import { Worker } from 'node:worker_threads';
import { OWN_CPU_FILE_SOURCE, threadClock } from '../../lib/threadCpu';
import type { RuleBounds } from './expand';

/**
 * rrule walks period by period until a match passes UNTIL, or the year 9999 when none ever does
 * (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`): an impossible rule would hold the event loop for
 * seconds. A rule sent by a client is therefore first expanded on a thread of its own, given
 * RULE_DEADLINE_MS of that thread's CPU time; past that the thread is ended and the rule refused.
 * A legitimate rule takes a few milliseconds there. The deadline counts CPU time, not wall time:
 * on a machine short of cores the thread may wait far longer than it runs, and the load must not
 * decide whether a rule is accepted. RULE_WALL_LIMIT_MS bounds the wait all the same (and is the
 * deadline where the thread's CPU time cannot be read). The rules known to be hostile are refused
 * from their parts before (impossible.ts).
 */
export const RULE_DEADLINE_MS = 500;
export const RULE_WALL_LIMIT_MS = 5_000;

const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const cpuFile = ${OWN_CPU_FILE_SOURCE};
const { RRule } = require(workerData.rrule);
// Warmed up before taking rules (messages wait until the listener is attached): a cold thread
// runs its first expansion several times slower, and a legitimate rule would miss the deadline.
new RRule({ freq: RRule.DAILY, count: 3000, dtstart: new Date(0) }).all();
new RRule({ freq: RRule.MONTHLY, byweekday: [RRule.FR.nth(-1)], count: 500, dtstart: new Date(0) }).all();
parentPort.on('message', ({ id, text, dtstart, until, cap, from, limit }) => {
  parentPort.postMessage({ id, started: cpuFile });
  const starts = [];
  let upcoming = 0;
  // Repeated starts (one per BYSETPOS position selecting it) are skipped; COUNT counts distinct ones (expand.ts).
  const { count, ...options } = RRule.parseString(text);
  const most = Math.min(cap, count ?? Infinity);
  new RRule({ ...options, dtstart: new Date(dtstart), until: new Date(until), tzid: null }).all((date) => {
    const time = date.getTime();
    if (time === starts[starts.length - 1]) return true;
    starts.push(time);
    if (time >= from) upcoming++;
    return starts.length < most && upcoming <= limit;
  });
  parentPort.postMessage({ id, starts });
});
`;

interface Task {
  id: number;
  resolve(starts: Date[] | null): void;
  timer?: NodeJS.Timeout;
}

let thread: Worker | null = null;
let nextId = 1;
const tasks = new Map<number, Task>();

function ensureThread(): Worker {
  if (thread) return thread;
  const started = new Worker(THREAD_CODE, { eval: true, workerData: { rrule: require.resolve('rrule') } });
  started.unref();
  started.on('message', (message: { id: number; started?: string | null; starts?: number[] }) => {
    const task = tasks.get(message.id);
    if (!task) return;
    if (message.started !== undefined) {
      const ran = threadClock(message.started);
      const waitedSince = Date.now();
      const check = () => {
        const left = RULE_DEADLINE_MS - ran();
        if (left > 0 && Date.now() - waitedSince < RULE_WALL_LIMIT_MS) {
          task.timer = setTimeout(check, left);
          return;
        }
        // Ending the thread ends the runaway expansion; the next rule starts a new one.
        tasks.delete(task.id);
        if (thread === started) thread = null;
        void started.terminate();
        task.resolve(null);
        // A replacement warms up now, not when the next rule is waiting for it.
        ensureThread();
        for (const other of tasks.values()) retry(other);
      };
      task.timer = setTimeout(check, RULE_DEADLINE_MS);
      return;
    }
    clearTimeout(task.timer);
    tasks.delete(task.id);
    task.resolve((message.starts ?? []).map((ms) => new Date(ms)));
  });
  started.on('error', () => {
    if (thread === started) thread = null;
    for (const task of tasks.values()) retry(task);
  });
  thread = started;
  return started;
}

/** What the thread expands: at most `cap` starts, stopping once more than `limit` are at or after `from`. */
export interface GuardedTask {
  text: string;
  bounds: RuleBounds;
  cap: number;
  from: Date;
  limit: number;
}

const pending = new Map<number, GuardedTask>();

function retry(task: Task): void {
  const input = pending.get(task.id);
  clearTimeout(task.timer);
  if (input) ensureThread().postMessage(message(task.id, input));
}

const message = (id: number, task: GuardedTask) => ({
  id,
  text: task.text,
  dtstart: task.bounds.dtstart.getTime(),
  until: task.bounds.until.getTime(),
  cap: task.cap,
  from: task.from.getTime(),
  limit: task.limit,
});

/** The rule's floating starts (see GuardedTask), or null when it ran past RULE_DEADLINE_MS. */
export function guardedRuleStarts(task: GuardedTask): Promise<Date[] | null> {
  const id = nextId++;
  pending.set(id, task);
  return new Promise<Date[] | null>((resolve) => {
    tasks.set(id, {
      id,
      resolve: (starts) => {
        pending.delete(id);
        resolve(starts);
      },
    });
    ensureThread().postMessage(message(id, task));
  });
}
