/** Latency and outcome figures of a soak, per window and overall. */

export interface Outcome {
  op: string;
  status: number;
  ms: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Summary {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export const isError = (status: number): boolean => status === 0 || status >= 400;

export function summarise(outcomes: Outcome[]): Summary {
  const latencies = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const o of outcomes) {
    const key = o.status === 0 ? 'no answer' : String(o.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return {
    requests: outcomes.length,
    errors: outcomes.filter((o) => isError(o.status)).length,
    statuses,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? 0,
  };
}

export const ms = (value: number): string => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** One fixed-width line of a window's figures. */
export interface ServerFigures {
  rss?: number;
  heap?: number;
  backlog?: number;
}

export function windowLine(label: string, s: Summary, server: ServerFigures): string {
  return [
    label.padEnd(9),
    `${s.requests} req`.padStart(9),
    `${s.errors} err`.padStart(8),
    `p50 ${ms(s.p50)}`.padStart(12),
    `p95 ${ms(s.p95)}`.padStart(12),
    `p99 ${ms(s.p99)}`.padStart(12),
    `max ${ms(s.max)}`.padStart(12),
    `rss ${server.rss === undefined ? '?' : mib(server.rss)}`.padStart(14),
    `heap ${server.heap === undefined ? '?' : mib(server.heap)}`.padStart(15),
    `backlog ${server.backlog ?? '?'}`.padStart(12),
  ].join(' ');
}

/** `name value` of the first sample of `metric` in a Prometheus text exposition. */
export function metricValue(text: string, metric: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${metric} `) || l.startsWith(`${metric}{`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : undefined;
}
