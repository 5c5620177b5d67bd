/** A record's publication status (interface.md part 2; `trash` only for events, venues and organizers). */
export type Status = 'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash';
