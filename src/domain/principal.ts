export type Role = 'administrator' | 'editor' | 'author' | 'contributor';

/** Who is calling: anonymous, or the holder of an API key. */
export interface Principal {
  keyId: string | null;
  /** The numeric user identity recorded as `author`; 0 for anonymous callers. */
  userId: number;
  role: Role | null;
}
