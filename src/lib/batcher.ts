interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Gathers items into batches: `handle` is called with every item given in the same turn of the
 * event loop, or while its previous call ran, one call at a time. Each item's promise settles
 * with its result (`handle` answers in the items' order) or the batch's error.
 */
export class Batcher<T, R = void> {
  private waiting: Waiting<T, R>[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly handle: (items: T[]) => Promise<R[]>) {}

  run(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /** Settles when every item given so far is handled. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length) {
      const batch = this.waiting.splice(0);
      try {
        const results = await this.handle(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.running = null;
  }
}
