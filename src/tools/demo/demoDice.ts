import { sanitizeRichText } from '../../domain/html';

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export class Dice {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** `#` → digit, `A` → capital letter. */
  pattern(shape: string): string {
    return shape.replace(/[#A]/g, (c) =>
      c === '#' ? String(this.int(0, 9)) : String.fromCharCode(65 + this.int(0, 25)),
    );
  }
}

export const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_m, key: string) => values[key] ?? '');
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Rich text as the API stores it (templates hold only allowed markup; sanitised once). */
export const richText = (template: string, values: Record<string, string>) =>
  sanitizeRichText(fill(template, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, escapeHtml(v)]))));
