import slugifyLib from 'slugify';

const MAX_SLUG_LENGTH = 190;

/** Lower case, accents folded, words joined by hyphens (CONTRACT part 4). */
export function slugify(text: string): string {
  return slugifyLib(text, { lower: true, strict: true, trim: true })
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-$/, '');
}
