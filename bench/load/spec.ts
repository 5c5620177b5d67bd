/** What the parent asks a load child to do (written as JSON to a file the child reads). */
export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds measured, after `warmup` seconds whose results are thrown away. */
  duration: number;
  warmup: number;
  /** A fixed number of requests instead of `duration` (CPU per request: bench/cpu.ts). */
  amount?: number;
  /** Requests per second over all connections (fixed-rate scenarios). */
  overallRate?: number;
  method: 'GET' | 'POST';
  /** Request paths, taken in turn from a random start (read IDs, search words, places...). */
  paths: string[];
  headers?: Record<string, string>;
  /** Headers of each path (same order as `paths`): a revalidation's `If-None-Match`. */
  pathHeaders?: Record<string, string>[];
  /** POST bodies, taken in turn; `title` gets a unique suffix so no two writes share a slug. */
  bodies?: Record<string, unknown>[];
  /** Measure the time from each write's response until its ID is searchable in `index`. */
  lag?: { elasticsearchUrl: string; index: string; pollMs: number; giveUpMs: number };
}

export interface Percentiles {
  p50: number;
  p95?: number;
  p99: number;
  max: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  latency: Percentiles & { mean: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  lag?: Percentiles & { samples: number; unseen: number };
}
