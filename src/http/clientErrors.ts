import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { finished } from 'node:stream';
import type { Language } from '../../config';
import { CalendarError } from '../domain/errors';

interface ParserError extends Error {
  code?: string;
}

/** Requests Node's HTTP parser refuses before the app sees them (request line or headers). */
function errorOf(err: ParserError): CalendarError {
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return new CalendarError(431, 'rest_headers_too_large', 'The request line or headers are too large.');
  // A method HTTP does not define (`FOO /`): the parser stops at it, before any route is known,
  // so there is no `Allow` to give with a 405; RFC 9110 answers 501.
  if (err.code === 'HPE_INVALID_METHOD')
    return new CalendarError(
      501,
      'rest_method_not_implemented',
      'The request method is not one this server implements.',
    );
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT')
    return new CalendarError(408, 'rest_request_timeout', 'The request was not received in time.');
  return new CalendarError(400, 'rest_bad_request', 'The request could not be parsed as HTTP.');
}

/** The response Node is writing on `socket` for an earlier (pipelined) request, if any. */
const responseInFlight = (socket: Socket) =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;

/**
 * Calls `then` once no earlier response is being written on `socket`. A response whose request
 * never arrived whole (the client closed its side mid-body, or the body is what failed to parse)
 * will not come: the connection is closed instead, which ends that request.
 */
function whenResponsesDone(socket: Socket, then: () => void): void {
  const response = responseInFlight(socket);
  if (!response || response.writableFinished) return then();
  if (!response.req.complete) return void socket.destroy();
  // Node hands the socket to the next queued response when this one finishes: look again then.
  finished(response, () => setImmediate(() => whenResponsesDone(socket, then)));
}

/**
 * A `clientError` handler: answers what the HTTP parser rejects (a URL or headers over the size
 * limit, malformed HTTP) with the CONTRACT part 9 error envelope instead of Node's bare status
 * line, then closes the connection. Requests pipelined before the bad one get their own answers
 * first: the error must not take the place of a response a client is waiting for.
 */
export function clientErrorHandler(defaultLanguage: Language): (err: ParserError, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    whenResponsesDone(socket, () => endWithError(socket, errorOf(err), defaultLanguage));
  };
}

/** Writes an error envelope straight to `socket` (no request object to answer through) and closes it. */
function endWithError(socket: Socket, err: CalendarError, language: Language): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(err.envelope());
  socket.end(
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Language: ${language}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A `connect` handler: this API is no proxy, so CONNECT gets the error envelope, not a dropped connection. */
export function connectHandler(defaultLanguage: Language): (req: unknown, socket: Socket) => void {
  return (_req, socket) =>
    endWithError(
      socket,
      new CalendarError(501, 'rest_method_not_implemented', 'CONNECT is not implemented: this server is no proxy.'),
      defaultLanguage,
    );
}
