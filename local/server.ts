import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { isIP } from 'node:net';
import type { APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { API_BASE_PATH, fullPath, routeKey, routes as allRoutes, type RouteDefinition } from '../functions/routes.js';
import type { ErrorItem } from '../shared/errors.js';
import { allowedOrigin, type CorsPolicy } from '../shared/http/cors.js';
import { errorResponse } from '../shared/http/envelope.js';
import { Router, unmatchedResponse } from '../shared/http/route-matcher.js';
import { toApiGatewayEvent } from './api-gateway-event.js';
import { writeClientError } from './client-errors.js';
import { createHandlerLoader, HandlerModuleNotFoundError, type HttpHandler } from './handler-loader.js';
import { isOwnHost } from './host-check.js';
import { createLambdaContext } from './lambda-context.js';

/**
 * The local API Gateway: serves every route of functions/routes.ts below `/api/v1`, turning each request into
 * the payload-2.0 event a Lambda gets and the handler's result back into an HTTP response.
 */
export interface LocalServerOptions {
  /** Defaults to the real route table. */
  routes?: readonly RouteDefinition[];
  /** Defaults to importing `functions/http/<route.handler>.ts`. */
  loadHandler?: (route: RouteDefinition) => Promise<HttpHandler>;
  basePath?: string;
  /** API Gateway's payload limit: 10 MB. */
  maxBodyBytes?: number;
  /** Beyond this a too-large body is no longer drained: the 413 goes out at once and the connection closes. */
  maxDrainBytes?: number;
  /** One line per request (method, path, status, duration); off by default. */
  accessLog?: (line: string) => void;
  /** Where handler failures are reported (stack included); the client sees only the request id. */
  errorLog?: (message: string, error: unknown) => void;
  /** CORS as API Gateway's `corsPreflight` does it (shared/http/cors.ts); off when absent. */
  cors?: CorsPolicy;
  /**
   * The `Host` values this server answers (local/host-check.ts, against DNS rebinding); any other is 421 before
   * routing. The runtime always sets it; absent, every host is answered (unit tests of the routing).
   */
  allowedHosts?: ReadonlySet<string>;
  /**
   * Read the client's address from the last `X-Forwarded-For` entry (a proxy of the developer's own in front); by
   * default the socket's address is the client's, whatever the request says.
   */
  trustForwardedFor?: boolean;
}

export const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_DRAIN_BYTES = 100 * 1024 * 1024;

type Reply = APIGatewayProxyStructuredResultV2;

export function createLocalServer(options: LocalServerOptions = {}): Server {
  const tableOfRoutes = options.routes ?? allRoutes;
  const cors = options.cors;
  // Public links (`/u/…`, `/v/…`) are served at the root, as API Gateway serves them; with CORS on, every known path
  // also takes OPTIONS (the preflight API Gateway answers itself).
  const router = new Router(tableOfRoutes, {
    basePath: options.basePath ?? API_BASE_PATH,
    extraMethods: cors ? ['OPTIONS'] : [],
  });
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const maxDrainBytes = options.maxDrainBytes ?? MAX_DRAIN_BYTES;
  const defaultLoader = createHandlerLoader('http');
  const loadHandler = options.loadHandler ?? ((route: RouteDefinition) => defaultLoader(route.handler));
  const errorLog = options.errorLog ?? ((message, error) => console.error(message, error));

  async function serve(req: IncomingMessage, requestId: string): Promise<{ reply: Reply; handler?: string }> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    if (options.allowedHosts && !isOwnHost(req.headers.host, options.allowedHosts)) {
      await drain(req, maxDrainBytes);
      const item: ErrorItem = {
        condition: 'malformed',
        key: 'host',
        error:
          'This local server answers only its own host names (127.0.0.1, localhost, [::1] and the configured base URLs)',
      };
      return { reply: errorResponse(421, [item], 'Misdirected Request', requestId) };
    }
    if (cors && method === 'OPTIONS') {
      await drain(req, maxDrainBytes);
      return { reply: preflight(cors, router.match('OPTIONS', path), singleHeader(req.headers.origin)) };
    }
    const match = router.match(method, path);

    if (match.kind === 'not_found' || match.kind === 'method_not_allowed') {
      await drain(req, maxDrainBytes);
      return { reply: unmatchedResponse(match, method, path, requestId) };
    }
    if (match.kind === 'malformed') {
      await drain(req, maxDrainBytes);
      const item: ErrorItem = {
        condition: 'malformed',
        key: match.parameter,
        error: 'Path parameter is not valid percent-encoding',
      };
      return { reply: errorResponse(400, [item], 'Bad Request', requestId) };
    }

    const body = await readBody(req, maxBodyBytes, maxDrainBytes);
    if (body === 'too_large') {
      const item: ErrorItem = { condition: 'max', key: 'body', error: `Request body exceeds ${maxBodyBytes} bytes` };
      return { reply: errorResponse(413, [item], 'Payload Too Large', requestId) };
    }

    const { route, pathParameters } = match;
    const event = toApiGatewayEvent(
      {
        method,
        url,
        headers: req.headersDistinct,
        body,
        sourceIp: clientIp(req, options.trustForwardedFor === true),
        port: req.socket.localPort,
        httpVersion: req.httpVersion,
      },
      // HEAD reaches a GET route's handler under a HEAD route of its own, as infra declares one per GET route.
      { routeKey: method === 'HEAD' ? `HEAD ${fullPath(route)}` : routeKey(route), pathParameters, requestId },
    );
    const context = createLambdaContext({
      functionName: route.handler,
      awsRequestId: requestId,
      timeoutSeconds: route.timeoutSeconds,
      memoryMb: route.memoryMb,
    });
    try {
      const handler = await loadHandler(route);
      const started = Date.now();
      const result = await handler(event, context);
      const limitMs = (route.timeoutSeconds ?? 10) * 1000;
      if (Date.now() - started > limitMs) {
        errorLog(
          `[${route.handler}] ran longer than its ${limitMs / 1000} s timeout; Lambda would have stopped it`,
          undefined,
        );
      }
      return { reply: toStructured(result), handler: route.handler };
    } catch (error) {
      const what = error instanceof HandlerModuleNotFoundError ? error.message : `handler ${route.handler} failed`;
      errorLog(`[${requestId}] ${what}`, error instanceof HandlerModuleNotFoundError ? '' : error);
      return { reply: internalError(requestId), handler: route.handler };
    }
  }

  // The response under way on each connection, and the connections the clientError handler answered instead.
  const responses = new WeakMap<object, ServerResponse>();
  const answeredByParser = new WeakSet<object>();
  const server = createServer((req, res) => {
    const requestId = randomUUID();
    const started = Date.now();
    const socket = req.socket;
    responses.set(socket, res);
    // A keep-alive connection carries the next request only once this response is done.
    res.once('finish', () => {
      if (responses.get(socket) === res) responses.delete(socket);
    });
    serve(req, requestId)
      .then(({ reply: answer, handler }) => {
        if (answeredByParser.has(socket)) return;
        const reply =
          cors && req.method !== 'OPTIONS' ? withCorsOrigin(cors, answer, singleHeader(req.headers.origin)) : answer;
        // A body left unread (cut past the drain limit) would be parsed as the next request: close instead.
        send(res, req.complete ? reply : { ...reply, headers: { ...reply.headers, connection: 'close' } }, requestId);
        options.accessLog?.(
          `${req.method} ${redactQuerySecrets(req.url ?? '/')} → ${reply.statusCode ?? 200} ${Date.now() - started} ms` +
            (handler ? ` (${handler})` : ''),
        );
      })
      .catch((error: unknown) => {
        if (answeredByParser.has(socket)) return;
        // Only reachable on a broken connection (body read aborted); nothing useful can be answered.
        errorLog(`[${requestId}] request failed before reaching a handler`, error);
        if (!res.headersSent) send(res, internalError(requestId), requestId);
      });
  });
  // Node answers a request its parser refuses (bad request line, headers too large, broken chunked body) with an
  // empty body; the API answers with the envelope, unless a response on this connection is already under way.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (responses.get(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    answeredByParser.add(socket);
    writeClientError(error, socket);
  });
  return server;
}

/**
 * An OPTIONS request with CORS on, answered as API Gateway's `corsPreflight` does: 204, and for an allowed origin the
 * policy's Access-Control-* headers; a disallowed origin gets none, so the browser refuses the real request.
 */
function preflight(cors: CorsPolicy, match: ReturnType<Router['match']>, origin: string | undefined): Reply {
  const allowed = allowedOrigin(cors, origin);
  const headers: Record<string, string> = { vary: 'Origin' };
  if (match.kind === 'method_not_allowed') headers['allow'] = match.allow.join(', ');
  if (allowed) {
    Object.assign(headers, {
      'access-control-allow-origin': allowed,
      'access-control-allow-methods': cors.allowMethods.join(','),
      'access-control-allow-headers': cors.allowHeaders.join(','),
      'access-control-max-age': String(cors.maxAgeSeconds),
    });
  }
  return { statusCode: 204, headers };
}

/** Any other answer names an allowed origin (and varies on Origin, so caches keep one copy per origin). */
function withCorsOrigin(cors: CorsPolicy, reply: Reply, origin: string | undefined): Reply {
  const allowed = allowedOrigin(cors, origin);
  const headers = {
    ...reply.headers,
    vary: 'Origin',
    ...(allowed
      ? { 'access-control-allow-origin': allowed, 'access-control-expose-headers': cors.exposeHeaders.join(', ') }
      : {}),
  };
  return { ...reply, headers };
}

const singleHeader = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** Same body as the handlers' error middleware gives for an unexpected error: the request id, no internals. */
function internalError(requestId: string): Reply {
  const item: ErrorItem = {
    condition: 'internal',
    key: 'request',
    error: 'An internal error occurred; quote the request id to support',
  };
  return errorResponse(500, [item], 'Internal server error', requestId);
}

/**
 * API Gateway's response mapping for payload 2.0: a result with `statusCode` is used as is; any other value is
 * taken as a JSON body with status 200.
 */
export function toStructured(result: APIGatewayProxyResultV2 | undefined): Reply {
  if (typeof result === 'object' && result !== null && 'statusCode' in result) return result as Reply;
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: typeof result === 'string' ? result : JSON.stringify(result ?? null),
  };
}

function send(res: ServerResponse, reply: Reply, requestId: string): void {
  const headers: OutgoingHttpHeaders = { 'apigw-requestid': requestId };
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (reply.cookies && reply.cookies.length > 0) headers['set-cookie'] = reply.cookies;
  const body =
    reply.body === undefined ? Buffer.alloc(0) : Buffer.from(reply.body, reply.isBase64Encoded ? 'base64' : 'utf8');
  headers['content-length'] = body.length;
  res.writeHead(reply.statusCode ?? 200, headers);
  res.end(body);
}

/**
 * Reads the body up to `limit` bytes. A larger body is still drained (so the client, still uploading, reads the
 * 413 instead of a reset connection) up to `drainLimit`; past that, reading stops and the request stays incomplete.
 */
function readBody(req: IncomingMessage, limit: number, drainLimit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > drainLimit) {
        req.removeListener('data', onData);
        req.pause();
        resolve('too_large');
      } else if (size <= limit) {
        chunks.push(chunk);
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve(size > limit ? 'too_large' : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

async function drain(req: IncomingMessage, drainLimit: number): Promise<void> {
  await readBody(req, 0, drainLimit).catch(() => undefined);
}

/**
 * The client's address as API Gateway's `sourceIp` gives it: the socket's peer. Only with `trustForwardedFor` (a
 * proxy of the developer's own in front) the last `X-Forwarded-For` entry, the one that proxy added, when it is an
 * address.
 */
function clientIp(req: IncomingMessage, trustForwardedFor: boolean): string {
  if (trustForwardedFor) {
    const header = req.headersDistinct['x-forwarded-for']?.join(',') ?? '';
    const last = header
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .at(-1);
    if (last && isIP(last) !== 0) return normalizeIp(last);
  }
  return normalizeIp(req.socket.remoteAddress);
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, as API Gateway reports IPv4 clients. */
function normalizeIp(address: string | undefined): string {
  if (!address) return '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * The URL as the access log shows it: a sign-in link's `token` (a one-time credential) and the token of a
 * public link (`/u/…`, `/v/…`, which never expire) never reach a log. API Gateway's access log writes the route key.
 */
export function redactQuerySecrets(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]').replace(/^\/(u|v)\/[^/?#]+/, '/$1/[redacted]');
}
