import { Parser } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';
import { ValidationError } from './errors';

/** Whitespace-separated tag names, as one readable line. */
const tags = (names: string): string[] => names.split(' ');

/**
 * A link that opens another browsing context gets `rel="noopener"`, as WordPress adds it: the
 * opened page cannot reach back through `window.opener`.
 */
const noOpener: sanitizeHtml.Transformer = (tagName, attribs) => {
  if (!attribs.target || attribs.target === '_self') return { tagName, attribs };
  const rel = (attribs.rel ?? '').split(/\s+/).filter(Boolean);
  return { tagName, attribs: rel.includes('noopener') ? attribs : { ...attribs, rel: [...rel, 'noopener'].join(' ') } };
};

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: tags('p br a em strong b i u ul ol li h1 h2 h3 h4 h5 h6 blockquote'),
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  transformTags: { a: noOpener },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/**
 * Tags one rich text may hold: far more than any description needs, few enough that sanitising
 * stays cheap (its cost grows faster than the nesting: 33,000 nested tags took 150 ms).
 */
const MAX_TAGS = 5_000;
const TAG_START = /<[a-zA-Z/!?]/g;

/**
 * `html` made safe, within `max` characters as stored: escaping can lengthen a text (`&` becomes
 * `&amp;`), and what is returned must be accepted when sent back. Longer, or more than MAX_TAGS
 * tags, is a 400 naming `param`.
 */
export function safeRichText(param: string, html: string, max: number): string {
  let tagCount = 0;
  TAG_START.lastIndex = 0;
  while (TAG_START.exec(html)) tagCount++;
  if (tagCount > MAX_TAGS)
    throw new ValidationError({ [param]: `${param} holds ${tagCount} HTML tags: at most ${MAX_TAGS}` });
  const safe = sanitizeRichText(html);
  if (safe.length > max) {
    throw new ValidationError({
      [param]: `${param} is ${safe.length} characters once its HTML is made safe (& is written &amp;): at most ${max}`,
    });
  }
  return safe;
}

/** Keeps safe formatting only (CONTRACT part 2): no scripts, handlers or `javascript:` URLs. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, ALLOWED).trim();
}

/** Elements whose content is not text a reader sees (as sanitize-html's `nonTextTags`). */
const NOT_TEXT = new Set(tags('script style textarea option noscript title'));
/** Elements that separate words: `<p>one</p><p>two</p>` reads "one two", not "onetwo". */
const BREAKS = new Set(
  tags(
    'address article aside blockquote br dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table td th tr ul',
  ),
);

const collapseSpaces = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Plain text of rich text, for search and for the schema.org description: the text a reader
 * sees, entities decoded, words apart across blocks, whitespace collapsed. One htmlparser2 pass
 * (sanitize-html, built to keep markup, cost ~30 µs a call and left entities encoded).
 */
export function plainText(html: string | null | undefined): string {
  if (!html) return '';
  if (!/[<&]/.test(html)) return collapseSpaces(html);
  let text = '';
  let hidden = 0;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (NOT_TEXT.has(name)) hidden++;
        else if (BREAKS.has(name)) text += ' ';
      },
      onclosetag(name) {
        if (NOT_TEXT.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BREAKS.has(name)) text += ' ';
      },
      ontext(chunk) {
        if (hidden === 0) text += chunk;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return collapseSpaces(text);
}

/** Elements a reader sees as paragraphs (a blank line after them), and those that end a line. */
const PARAGRAPHS = new Set(
  tags(
    'address article aside blockquote div dl figure footer h1 h2 h3 h4 h5 h6 header hr main nav ol p pre section table ul',
  ),
);
const LINES = new Set(tags('br dd dt figcaption li td th tr'));

/**
 * Rich text as a reader of plain text wants it (a calendar's DESCRIPTION): paragraphs apart by a
 * blank line, line breaks kept, a link's address after its text when the text does not show it,
 * entities decoded, spaces collapsed within lines.
 */
export function readableText(html: string | null | undefined): string {
  if (!html) return '';
  let text = '';
  let hidden = 0;
  const links: { href: string; from: number }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (NOT_TEXT.has(name)) hidden++;
        else if (PARAGRAPHS.has(name)) text += '\n\n';
        else if (LINES.has(name)) text += '\n';
        if (name === 'a') links.push({ href: attributes.href?.trim() ?? '', from: text.length });
      },
      onclosetag(name) {
        if (NOT_TEXT.has(name)) hidden = Math.max(0, hidden - 1);
        else if (PARAGRAPHS.has(name)) text += '\n\n';
        else if (name === 'a') {
          const link = links.pop();
          if (link?.href && !text.slice(link.from).includes(link.href)) text += ` (${link.href})`;
        }
      },
      ontext(chunk) {
        // Source line breaks are spaces in HTML: lines end at elements only.
        if (hidden === 0) text += chunk.replace(/\s+/g, ' ');
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return text
    .split('\n')
    .map((line) => line.replace(/ +/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
