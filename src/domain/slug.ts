import slugifyLib from 'slugify';

const MAX_SLUG_LENGTH = 190;

/**
 * Lower case, accents folded, words joined by hyphens (CONTRACT part 4). Symbols separate words
 * and are dropped, apostrophes vanish: slugify's map would spell `<`, `&` or `€` as English words
 * ("less", "and", "euro"), even in a French or German slug.
 */
export function slugify(text: string): string {
  const words = text.replace(/['’]/g, '').replace(/[^\p{L}\p{M}\p{N}\s]/gu, ' ');
  return slugifyLib(words, { lower: true, strict: true, trim: true })
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-$/, '');
}
