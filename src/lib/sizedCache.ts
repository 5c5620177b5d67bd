/**
 * Values by key, each weighing its `length` (a string's characters, a buffer's bytes), at most
 * `maxLength` in all: past the bound, the least recently used go first. A value heavier than the
 * bound is not kept.
 */
export class SizedCache<V extends { readonly length: number } = string> {
  private readonly entries = new Map<string, V>();
  private total = 0;

  constructor(private readonly maxLength: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    if (value.length > this.maxLength) return;
    this.entries.set(key, value);
    this.total += value.length;
    for (const [oldest, old] of this.entries) {
      if (this.total <= this.maxLength) break;
      this.delete(oldest, old);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string, value = this.entries.get(key)): void {
    if (value === undefined) return;
    this.entries.delete(key);
    this.total -= value.length;
  }
}
