/**
 * Reads of a value that must be as fresh as the moment each caller asked, shared between callers:
 * a caller joins the read that starts after the one running when it asked (never the running one,
 * which may have started before a write the caller already saw answered). Under load, one read
 * serves every caller that arrived while the previous read ran, instead of one read each. When the
 * running read fails, those callers fail with it (the failure came after they asked: the source is
 * unavailable now) instead of waiting as long again for a read of their own.
 */
export class FreshReads<T> {
  private running: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  fresh(): Promise<T> {
    if (!this.running) return this.start();
    this.next ??= this.running.then(
      () => {
        this.next = null;
        return this.start();
      },
      (err: unknown) => {
        this.next = null;
        throw err;
      },
    );
    return this.next;
  }

  private start(): Promise<T> {
    const read = this.read();
    this.running = read;
    // Registered before any caller's: the read is over before the next one starts.
    const over = () => {
      if (this.running === read) this.running = null;
    };
    read.then(over, over);
    return read;
  }
}
