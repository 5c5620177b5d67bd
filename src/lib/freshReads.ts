/**
 * Reads of a value that must be as fresh as the moment each caller asked, shared between callers:
 * a caller joins the read that starts after the one running when it asked (never the running one,
 * which may have started before a write the caller already saw answered). Under load, one read
 * serves every caller that arrived while the previous read ran, instead of one read each.
 */
export class FreshReads<T> {
  private running: Promise<unknown> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  fresh(): Promise<T> {
    if (!this.running) return this.start();
    this.next ??= this.running.then(() => {
      this.next = null;
      return this.start();
    });
    return this.next;
  }

  private start(): Promise<T> {
    const read = this.read();
    const running = read.then(
      () => undefined,
      () => undefined,
    );
    this.running = running;
    void running.then(() => {
      if (this.running === running) this.running = null;
    });
    return read;
  }
}
