import { readFile } from 'node:fs/promises';
import { runLoad } from './load/runLoad';
import type { LoadResult, LoadSpec } from './load/spec';

/** CPU seconds (user + system) a process has used so far (Linux). */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The CPU process `pid` spends per request of `spec` sent `amount` times (a fixed count: what a
 * request costs the server, whatever else shares the machine and slows it), in milliseconds.
 */
export async function cpuPerRequest(
  pid: number,
  spec: LoadSpec,
  amount: number,
  workDir: string,
): Promise<{ result: LoadResult; cpuMs: number }> {
  const before = await cpuSecondsOf(pid);
  const result = await runLoad({ ...spec, warmup: 0, amount }, workDir);
  const cpu = (await cpuSecondsOf(pid)) - before;
  return { result, cpuMs: (cpu * 1000) / Math.max(1, result.requests) };
}
