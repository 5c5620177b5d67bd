import { setTimeout as sleep } from 'node:timers/promises';
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** Milliseconds from sending to the whole body received. */
  ms: number;
}

export interface CallOptions {
  key?: string;
  headers?: Record<string, string>;
  /** Sent as is (with `contentType`), instead of `body` as JSON. */
  raw?: string | Buffer | URLSearchParams | FormData;
  contentType?: string;
  /** Give up (status 0) after this long; default 30 s. */
  timeoutMs?: number;
}

/** An answer with the request that got it (`POST /calendar/… {body}`), to name it in failure messages. */
export type AnswerTo = Answer & { request: string };

/** One HTTP request to `baseUrl + path`; a network failure or timeout answers status 0. */
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let payload: string | Buffer | URLSearchParams | FormData | undefined;
  if (options.raw !== undefined) {
    payload = options.raw;
    if (options.contentType) headers['Content-Type'] = options.contentType;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: payload as RequestInit['body'],
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, ms: performance.now() - started };
  } catch (err) {
    return { status: 0, headers: new Headers(), body: String(err) as T, ms: performance.now() - started };
  }
}

/** True when `body` is the CONTRACT part 9 error envelope for `status`. */
export function isErrorEnvelope(body: unknown, status: number): boolean {
  const b = body as { code?: unknown; message?: unknown; data?: { status?: unknown } } | undefined;
  return (
    typeof b === 'object' &&
    b !== null &&
    typeof b.code === 'string' &&
    b.code.length > 0 &&
    typeof b.message === 'string' &&
    typeof b.data === 'object' &&
    b.data !== null &&
    b.data.status === status
  );
}

/** The time it took `check` to hold, polled every `intervalMs`; past `timeoutMs`, an error naming `what`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string | (() => string),
  intervalMs = 100,
): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(intervalMs);
  }
  return Date.now() - started;
}

/**
 * What `read` gives once `done` holds of it, or its last answer after `timeoutMs`: for assertions
 * that show what was seen (a probe that gave up on a busy machine is read again meanwhile).
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(intervalMs);
  }
}

/** Percentile `p` (0-100) of `values` (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export { sleep };
