import { SingleBar } from 'cli-progress';

/**
 * Progress of a long operator task: a bar with rate and ETA on a terminal, plain periodic lines
 * otherwise (CI, logs), and a one-line summary at the end.
 */
export interface Progress {
  /** `records` more done, `errors` of them failed. */
  tick(records: number, errors?: number): void;
  /**
   * Stops the display and returns (and prints) the summary; `stopped`: the task ended on an
   * error, so what it counted is partial (the error is told after).
   */
  finish(stopped?: boolean): ProgressSummary;
}

export interface ProgressSummary {
  label: string;
  records: number;
  errors: number;
  /** What `errors` counts, singular (`error`, `difference`). */
  noun?: string;
  seconds: number;
  recordsPerSecond: number;
  /** The task ended on an error. */
  stopped?: boolean;
}

export interface ProgressOptions {
  label: string;
  /** Expected number of records (0 when unknown: no percentage or ETA). */
  total: number;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Default: whether `stream` is a terminal. */
  tty?: boolean;
  /** How often a plain line is printed when not on a terminal. */
  intervalMs?: number;
  /** Print nothing (the summary is still returned). */
  silent?: boolean;
  /** What the second counter counts, singular: `error` (default), `difference`... */
  noun?: string;
}

/** Creates the progress display of one task; an ops function receives a factory of these. */
export type ProgressFactory = (label: string, total: number, noun?: string) => Progress;

const DEFAULT_INTERVAL_MS = 5_000;

export function formatRate(recordsPerSecond: number): string {
  return recordsPerSecond >= 100 ? String(Math.round(recordsPerSecond)) : recordsPerSecond.toFixed(1);
}

const counted = (n: number, noun = 'error') => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function formatSummary(summary: ProgressSummary): string {
  if (summary.stopped)
    return `${summary.label}: stopped after ${summary.records} records in ${summary.seconds.toFixed(1)} s`;
  const errors = counted(summary.errors, summary.noun);
  return `${summary.label}: ${summary.records} records in ${summary.seconds.toFixed(1)} s (${formatRate(summary.recordsPerSecond)} records/s), ${errors}`;
}

function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;
}

/** One plain progress line: `reindex events: 1200/5000 (24%), 850 records/s, ETA 5s, 0 errors`. */
export function progressLine(
  label: string,
  done: number,
  total: number,
  errors: number,
  elapsedMs: number,
  noun?: string,
): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const share = total > 0 ? `/${total} (${Math.floor((Math.min(done, total) * 100) / total)}%)` : '';
  const eta = total > 0 && rate > 0 ? `, ETA ${formatEta(Math.max(0, total - done) / rate)}` : '';
  return `${label}: ${done}${share}, ${formatRate(rate)} records/s${eta}, ${counted(errors, noun)}`;
}

export function startProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? Boolean(stream.isTTY);
  const started = Date.now();
  let done = 0;
  let errors = 0;
  let bar: SingleBar | null = null;
  let timer: NodeJS.Timeout | null = null;
  if (!options.silent && tty) {
    bar = new SingleBar({
      stream,
      format: `${options.label} [{bar}] {percentage}% | {value}/{total} | {rate}/s | ETA {eta_formatted} | {errors} ${options.noun ?? 'error'}s`,
      hideCursor: true,
      etaBuffer: 50,
      // `tty` forced on a stream that is not a terminal: draw anyway, line by line.
      noTTYOutput: !stream.isTTY,
    });
    bar.start(Math.max(options.total, 1), 0, { rate: '0', errors: 0 });
  } else if (!options.silent) {
    const print = () =>
      stream.write(`${progressLine(options.label, done, options.total, errors, Date.now() - started, options.noun)}\n`);
    timer = setInterval(print, options.intervalMs ?? DEFAULT_INTERVAL_MS);
    timer.unref();
  }
  return {
    tick(records, failed = 0) {
      done += records;
      errors += failed;
      if (bar) {
        if (done > bar.getTotal()) bar.setTotal(done);
        bar.update(done, { rate: formatRate((done * 1000) / Math.max(1, Date.now() - started)), errors });
      }
    },
    finish(stopped = false) {
      if (timer) clearInterval(timer);
      bar?.stop();
      const seconds = (Date.now() - started) / 1000;
      const summary = {
        label: options.label,
        records: done,
        errors,
        noun: options.noun,
        seconds,
        recordsPerSecond: seconds > 0 ? done / seconds : 0,
        stopped,
      };
      if (!options.silent) stream.write(`${formatSummary(summary)}\n`);
      return summary;
    },
  };
}

/** A factory printing to stderr (a bar on a terminal), or printing nothing when `silent`. */
export function progressTo(options: Omit<ProgressOptions, 'label' | 'total'> = {}): ProgressFactory {
  return (label, total, noun) => startProgress({ ...options, label, total, noun });
}
