/** `noun` after its indefinite article: "an event", "an organizer", "a venue". */
export const withArticle = (noun: string): string => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
