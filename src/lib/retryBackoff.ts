const BASE_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/** Exponential backoff after `failures` failures in a row: 0.5 s, 1 s, 2 s… at most 30 s. */
export function retryDelayMs(failures: number): number {
  return Math.min(MAX_RETRY_MS, BASE_RETRY_MS * 2 ** Math.min(Math.max(failures - 1, 0), 16));
}

/** Failures in a row per key (a record the worker could not index), and the wait each earns. */
export class RetryBackoff<K> {
  private readonly failures = new Map<K, number>();

  /** Counts one more failure of `key` and says how long to wait before its next attempt. */
  failed(key: K): number {
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    return retryDelayMs(failures);
  }

  succeeded(key: K): void {
    this.failures.delete(key);
  }
}
