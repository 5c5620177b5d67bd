import { readFileSync } from 'node:fs';

/**
 * Run inside a thread (as source, for threads started from code text): the file where Linux counts
 * the nanoseconds that thread has run, or null where there is none.
 */
export const OWN_CPU_FILE_SOURCE = `(() => {
  try {
    return '/proc/' + require('node:fs').readlinkSync('/proc/thread-self') + '/schedstat';
  } catch {
    return null;
  }
})()`;

function cpuMsOf(file: string): number | null {
  try {
    const nanoseconds = Number(readFileSync(file, 'latin1').split(' ', 1)[0]);
    return Number.isFinite(nanoseconds) ? nanoseconds / 1e6 : null;
  } catch {
    return null;
  }
}

/**
 * Milliseconds a thread has spent running since this call: its CPU time, read from `file`, so
 * that time it waited for a core does not count; wall time where the file cannot be read.
 */
export function threadClock(file: string | null): () => number {
  const startedAt = Date.now();
  const startCpu = file ? cpuMsOf(file) : null;
  return () => {
    const cpu = startCpu === null ? null : cpuMsOf(file!);
    return cpu === null ? Date.now() - startedAt : cpu - startCpu!;
  };
}
