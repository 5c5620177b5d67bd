/**
 * Strings by key, at most `maxChars` characters in all: past the bound, the least recently used
 * go first. A string longer than the bound is not kept.
 */
export class SizedCache {
  private readonly entries = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: string): void {
    this.delete(key);
    if (value.length > this.maxChars) return;
    this.entries.set(key, value);
    this.chars += value.length;
    for (const [oldest, old] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.delete(oldest, old);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string, value = this.entries.get(key)): void {
    if (value === undefined) return;
    this.entries.delete(key);
    this.chars -= value.length;
  }
}
