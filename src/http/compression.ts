import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compress from 'koa-compress';
import type { Middleware } from 'koa';
import Negotiator from 'negotiator';
import type { AppContext, AppState } from './types';

/** Answers smaller than this are sent as they are: the headers and the CPU cost more than they save. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Brotli's quality for answers made per request: 4 compresses JSON about as well as gzip -9, at a fraction of 11's CPU. */
const BROTLI_QUALITY = 4;
/**
 * Brotli's window: 2^18 = 256 KiB instead of its 4 MiB default. An encoder holds a ring buffer of
 * the window's size for as long as its answer streams, so 32 list pages compressed at once held
 * over 100 MB more; pages are a few hundred KB, and compress as well.
 */
const BROTLI_WINDOW_BITS = 18;
const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
  [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
};
/** gzip's level: 6 (zlib's default) is within a few per cent of 9 on JSON, for about half the CPU. */
const GZIP_LEVEL = 6;

/** The encodings answers are sent in, the first preferred when `Accept-Encoding` ranks them equal. */
const ENCODINGS = ['br', 'gzip', 'identity'] as const;
type Negotiated = (typeof ENCODINGS)[number];
type Encoding = Exclude<Negotiated, 'identity'>;

/**
 * The encoding of an answer to a request with this `Accept-Encoding`: the one it ranks highest, br
 * on a tie (negotiator, as koa-compress negotiates); identity without the header; gzip for `*`
 * alone (koa-compress's default); undefined when none is acceptable (`identity;q=0`).
 */
export function answerEncoding(acceptEncoding: string): Negotiated | undefined {
  if (!acceptEncoding) return 'identity';
  const headers = { 'accept-encoding': acceptEncoding.trim() === '*' ? 'gzip' : acceptEncoding };
  return new Negotiator({ headers }).encoding(ENCODINGS, { preferred: ENCODINGS }) as Negotiated | undefined;
}

/** What the compression middleware may use for the encoding chosen: only that one. */
const ONLY: Record<Negotiated, false | { br?: false; gzip?: false }> = {
  br: { gzip: false },
  gzip: { br: false },
  identity: false,
};

/**
 * `br` or `gzip` as `answerEncoding` chooses, for answers over 1 KiB, with `Vary: Accept-Encoding`
 * on every answer; none for `HEAD`, 204 and 304 (koa-compress, left only the encoding chosen, so
 * that the answers made here and by `sendJsonOnce` agree). When the request accepts none of them,
 * the answer is sent as is (RFC 9110 12.5.3), where koa-compress would set an undefined
 * Content-Encoding and fail. A streamed body (a feed) is compressed as it streams; if it fails
 * midway, the compressed stream fails with it, so the connection is cut instead of ending as if
 * the answer were whole.
 */
export function compression(): Middleware<AppState> {
  const compressing = compress({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    br: { params: BROTLI_PARAMS },
    gzip: { level: GZIP_LEVEL },
    deflate: false,
    zstd: false,
    encodingPreference: [...ENCODINGS],
  }) as Middleware<AppState>;
  return async (ctx, next) => {
    ctx.compress = ONLY[answerEncoding(ctx.get('Accept-Encoding')) ?? 'identity'];
    let source: unknown;
    await compressing(ctx, async () => {
      await next();
      source = ctx.body;
    });
    const sent = ctx.body;
    if (source instanceof Readable && sent instanceof Readable && sent !== source) {
      source.once('error', (err) => sent.destroy(err));
    }
  };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const ENCODERS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => brotliAsync(body, { params: BROTLI_PARAMS }),
  gzip: (body) => gzipAsync(body, { level: GZIP_LEVEL }),
};

/** The encoded forms of bodies sent more than once, made once each and kept as long as their body. */
const encodedForms = new WeakMap<readonly Buffer[], Map<Encoding, Promise<Buffer>>>();

/** Bodies of several buffers sent once, and those sent again: joined then, kept as long as the body. */
const sentOnce = new WeakSet<readonly Buffer[]>();
const joined = new WeakMap<readonly Buffer[], Buffer>();

/**
 * What sends `pieces` as they are: streamed the first time (a body sent once is never copied
 * whole), one buffer from the second on (sent whole, a buffer costs half the CPU of its pieces).
 */
function unencoded(pieces: readonly Buffer[]): Buffer | Readable {
  if (pieces.length === 1) return pieces[0]!;
  let whole = joined.get(pieces);
  if (whole) return whole;
  if (!sentOnce.has(pieces)) {
    sentOnce.add(pieces);
    return Readable.from(pieces, { objectMode: false });
  }
  joined.set(pieces, (whole = Buffer.concat(pieces)));
  return whole;
}

/**
 * Sends JSON written as `pieces` (buffers sent one after the other, never joined: they may be
 * shared with other bodies) in the encoding the compression middleware would choose, with its
 * levels and threshold (none for HEAD or without Accept-Encoding), but each encoded form of one
 * body is made once, off the event loop, and kept while the body lives: a body kept and sent
 * again (a `/changes` page) is compressed once, not per request.
 */
export async function sendJsonOnce(ctx: AppContext, pieces: readonly Buffer[]): Promise<void> {
  ctx.type = 'application/json';
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const accepted =
    ctx.method === 'HEAD' || length < COMPRESSION_THRESHOLD_BYTES
      ? 'identity'
      : answerEncoding(ctx.get('Accept-Encoding'));
  if (accepted !== 'br' && accepted !== 'gzip') {
    ctx.body = unencoded(pieces);
    ctx.length = length;
    return;
  }
  let forms = encodedForms.get(pieces);
  if (!forms) encodedForms.set(pieces, (forms = new Map()));
  let encoded = forms.get(accepted);
  if (!encoded) {
    encoded = ENCODERS[accepted](pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));
    forms.set(accepted, encoded);
    encoded.catch(() => forms.delete(accepted));
  }
  const sent = await encoded;
  ctx.set('Content-Encoding', accepted);
  ctx.body = sent;
}
