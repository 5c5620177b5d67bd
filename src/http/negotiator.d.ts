/** negotiator 1.x ships no types; only what src/http/compression.ts uses is declared. */
declare module 'negotiator' {
  import type { IncomingHttpHeaders } from 'node:http';

  class Negotiator {
    constructor(request: { headers: IncomingHttpHeaders });
    /** The best of `available` for Accept-Encoding, `preferred` deciding ties; undefined if none is acceptable. */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
  export = Negotiator;
}
