/** `noun` after its indefinite article: "an event", "an organizer", "a venue". */
export const withArticle = (noun: string): string => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** How a sentence says a status: "once it is published". */
export const STATUS_WORDS: Record<string, string> = {
  publish: 'published',
  future: 'scheduled',
  private: 'private',
  draft: 'a draft',
  pending: 'pending review',
  trash: 'in the trash',
};
