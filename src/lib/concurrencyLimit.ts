/**
 * Runs tasks weighing at most `max` in all at once (each weighs 1 unless told, never more than
 * `max`); the others wait their turn, first come first served: a heavy task waiting holds back
 * the lighter ones behind it, so it is never starved.
 */
export class ConcurrencyLimit {
  private used = 0;
  private readonly waiting: { weight: number; start: () => void }[] = [];

  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>, weight = 1): Promise<T> {
    const units = Math.min(Math.max(weight, 1), this.max);
    if (this.waiting.length === 0 && this.used + units <= this.max) this.used += units;
    else await new Promise<void>((start) => this.waiting.push({ weight: units, start }));
    try {
      return await task();
    } finally {
      this.used -= units;
      this.startWaiting();
    }
  }

  private startWaiting(): void {
    for (let next = this.waiting[0]; next && this.used + next.weight <= this.max; next = this.waiting[0]) {
      this.waiting.shift();
      this.used += next.weight;
      next.start();
    }
  }
}
