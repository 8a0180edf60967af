import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorItem } from '../shared/errors.js';
import { errorResponse } from '../shared/http/envelope.js';

/**
 * Answers for requests Node's HTTP parser refuses before any route sees them (the server's `clientError` event):
 * Node's own answers have an empty body, the API's are always the envelope.
 */
export function describeClientError(
  error: NodeJS.ErrnoException,
  requestId: string,
): APIGatewayProxyStructuredResultV2 {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return answer(
        431,
        { condition: 'max', key: 'headers', error: `The request line and headers exceed ${maxHeaderSize} bytes` },
        requestId,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return answer(
        413,
        { condition: 'max', key: 'body', error: 'The chunk extensions of the body are too large' },
        requestId,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return answer(
        408,
        { condition: 'timeout', key: 'request', error: 'The request was not received in time' },
        requestId,
      );
    default:
      // The parser's code (e.g. HPE_INVALID_METHOD) tells a developer what was wrong; it reveals nothing internal.
      return answer(
        400,
        {
          condition: 'malformed',
          key: 'request',
          error: `The request is not valid HTTP/1.1 (${error.code ?? 'unknown'})`,
        },
        requestId,
      );
  }
}

function answer(status: number, item: ErrorItem, requestId: string): APIGatewayProxyStructuredResultV2 {
  return errorResponse(status, [item], STATUS_CODES[status] ?? 'Error', requestId);
}

/**
 * Writes the envelope as a complete HTTP/1.1 response straight to the socket (there is no ServerResponse at this
 * point) and closes the connection, as the parser's state is lost. A reset or already-closed socket gets nothing.
 */
export function writeClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = randomUUID();
  const reply = describeClientError(error, requestId);
  const body = Buffer.from(reply.body ?? '', 'utf8');
  const headers = {
    ...reply.headers,
    'apigw-requestid': requestId,
    'content-length': String(body.length),
    connection: 'close',
  };
  const head =
    `HTTP/1.1 ${reply.statusCode} ${STATUS_CODES[reply.statusCode ?? 400] ?? ''}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${String(value)}\r\n`)
      .join('') +
    '\r\n';
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  // What the client still sends is read and dropped, so closing does not reset the connection before it reads the
  // answer; a client that keeps sending is cut after a grace period.
  socket.resume();
  setTimeout(() => socket.destroy(), 2_000).unref();
}
