import { readFile } from 'node:fs/promises';
import { runLoad, type LoadRunner } from './load/runLoad';
import type { LoadResult, LoadSpec } from './load/spec';

/** CPU seconds (user + system) a process has used so far (Linux). */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds the Elasticsearch node at `url` has used so far: its own process's, from its node stats. */
export async function elasticsearchCpuSeconds(url: string): Promise<number> {
  const res = await fetch(`${url}/_nodes/_local/stats/process?filter_path=nodes.*.process.cpu.total_in_millis`);
  if (res.status !== 200) throw new Error(`Elasticsearch node stats answered ${res.status}`);
  const body = (await res.json()) as { nodes: Record<string, { process: { cpu: { total_in_millis: number } } }> };
  const [node] = Object.values(body.nodes);
  if (!node) throw new Error('Elasticsearch node stats named no node');
  return node.process.cpu.total_in_millis / 1000;
}

/**
 * The CPU process `pid` spends per request of `spec` sent `amount` times (a fixed count: what a
 * request costs the server, whatever else shares the machine and slows it), in milliseconds.
 */
export async function cpuPerRequest(
  pid: number,
  spec: LoadSpec,
  amount: number,
  loads: LoadRunner,
  elasticsearchUrl?: string,
): Promise<{ result: LoadResult; cpuMs: number; elasticsearchMs: number | null }> {
  const elasticsearch = elasticsearchUrl ? () => elasticsearchCpuSeconds(elasticsearchUrl) : null;
  const [before, elasticsearchBefore] = await Promise.all([cpuSecondsOf(pid), elasticsearch?.()]);
  const result = await runLoad({ ...spec, warmup: 0, amount }, loads);
  const [after, elasticsearchAfter] = await Promise.all([cpuSecondsOf(pid), elasticsearch?.()]);
  const perRequest = (seconds: number) => (seconds * 1000) / Math.max(1, result.requests);
  return {
    result,
    cpuMs: perRequest(after - before),
    elasticsearchMs:
      elasticsearchBefore === undefined || elasticsearchAfter === undefined
        ? null
        : perRequest(elasticsearchAfter - elasticsearchBefore),
  };
}
