import slugifyLib from 'slugify';

const MAX_SLUG_LENGTH = 190;
// slugify's map writes Greek in chat-style Greeklish (θ as "8", η as "h", ω as "w"); these are the
// letters that ELOT 743, the usual transliteration, writes otherwise.
slugifyLib.extend({
  β: 'v',
  Β: 'V',
  η: 'i',
  ή: 'i',
  Η: 'I',
  Ή: 'I',
  θ: 'th',
  Θ: 'Th',
  ξ: 'x',
  Ξ: 'X',
  χ: 'ch',
  Χ: 'Ch',
  ω: 'o',
  ώ: 'o',
  Ω: 'O',
  Ώ: 'O',
});
/** What slugify may keep of a transliterated character: letters, marks and digits of any script. */
const NOT_A_SLUG_CHARACTER = /[^\p{L}\p{M}\p{N}\s-]/gu;
// slugify reads text by UTF-16 unit, so it would split (and drop) a letter beyond the basic plane.
const BASIC_PLANE_RUN = /[^\u{10000}-\u{10FFFF}]+/gu;

/**
 * Lower case, accents folded, words joined by hyphens (CONTRACT part 4). Letters slugify cannot
 * transliterate are kept as written (`東京ドーム`), as WordPress keeps them. Symbols separate words
 * and are dropped, apostrophes vanish: slugify's map would spell `<`, `&` or `€` as English words
 * ("less", "and", "euro"), even in a French or German slug. New slugs are cut to 190 characters.
 */
export function slugify(text: string, maxLength = MAX_SLUG_LENGTH): string {
  const words = text
    .normalize('NFKC')
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{M}\p{N}\s]/gu, ' ');
  const slug = words
    .replace(BASIC_PLANE_RUN, (run) => slugifyLib(run, { replacement: ' ', trim: false, remove: NOT_A_SLUG_CHARACTER }))
    .toLowerCase()
    .trim()
    .replace(/[\s-]+/g, '-')
    .replace(/^-|-$/g, '');
  return [...slug].slice(0, maxLength).join('').replace(/-$/, '');
}
