import { Client } from '@elastic/elasticsearch';
import type { Percentiles } from './spec';

export function percentiles(values: number[], withP95 = false): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number);
  return { p50: at(0.5), ...(withP95 ? { p95: at(0.95) } : {}), p99: at(0.99), max: at(1) };
}

/**
 * Watches written IDs until a search finds them: the lag a user feels between a write's response
 * and the record showing in lists (refresh included). One `ids` search per poll for all pending.
 */
export class LagWatcher {
  private readonly client: Client;
  private readonly pending = new Map<string, number>();
  private readonly lags: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    elasticsearchUrl: string,
    private readonly index: string,
    private readonly pollMs: number,
  ) {
    this.client = new Client({ node: elasticsearchUrl, requestTimeout: 5_000 });
  }

  written(id: string): void {
    this.pending.set(id, performance.now());
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.pollMs);
  }

  private async poll(): Promise<void> {
    if (this.polling || this.pending.size === 0) return;
    this.polling = true;
    try {
      const ids = [...this.pending.keys()];
      const response = await this.client.search({
        index: this.index,
        query: { ids: { values: ids } },
        _source: false,
        size: ids.length,
      });
      const now = performance.now();
      for (const hit of response.hits.hits) {
        const at = this.pending.get(hit._id as string);
        if (at === undefined) continue;
        this.lags.push(now - at);
        this.pending.delete(hit._id as string);
      }
    } catch {
      // A failed poll is retried at the next tick; unseen writes are reported.
    } finally {
      this.polling = false;
    }
  }

  /** Waits until every written ID is seen or `giveUpMs` passes, then reports. */
  async finish(giveUpMs: number): Promise<Percentiles & { samples: number; unseen: number }> {
    const deadline = Date.now() + giveUpMs;
    while (this.pending.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    if (this.timer) clearInterval(this.timer);
    await this.client.close();
    return { ...percentiles(this.lags, true), samples: this.lags.length, unseen: this.pending.size };
  }
}
