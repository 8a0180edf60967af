import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * Builds the exact API Gateway HTTP API (payload format 2.0) event a Lambda would receive for a request, so the
 * handlers run locally on the same input they get on AWS.
 */
export interface IncomingRequest {
  method: string;
  /** Path and query as received, e.g. `/api/v1/client/contacts?page=2` (percent-encoding kept). */
  url: string;
  /** Lower-case names; repeated headers keep each value. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  sourceIp: string;
  /** The port the request arrived on (x-forwarded-port). */
  port?: number;
  /** `1.1` → `HTTP/1.1`. */
  httpVersion: string;
}

export interface RouteContext {
  routeKey: string;
  pathParameters: Record<string, string>;
  requestId: string;
  /** Defaults to the current time. */
  now?: Date;
}

/** Content types API Gateway hands over as text; everything else (multipart, binary, none) arrives base64. */
export function isTextualContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/x-www-form-urlencoded' ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/javascript'
  );
}

export function toApiGatewayEvent(request: IncomingRequest, route: RouteContext): APIGatewayProxyEventV2 {
  const now = route.now ?? new Date();
  const queryStart = request.url.indexOf('?');
  const rawPath = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : request.url.slice(queryStart + 1);

  const headers = joinHeaders(request.headers);
  // Payload 2.0 moves the Cookie header into `cookies`.
  const cookieHeader = headers['cookie'];
  delete headers['cookie'];
  headers['x-forwarded-for'] ??= request.sourceIp;
  if (request.port !== undefined) headers['x-forwarded-port'] ??= String(request.port);
  headers['x-forwarded-proto'] ??= 'http';
  headers['x-amzn-trace-id'] ??= traceId(now);

  const hostname = (headers['host'] ?? 'localhost').replace(/:\d+$/, '');
  const queryStringParameters = parseQuery(rawQueryString);
  const cookies = cookieHeader
    ?.split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const textual = isTextualContentType(headers['content-type']);

  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies && cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: hostname,
      domainPrefix: hostname.split('.')[0] ?? hostname,
      http: {
        method: request.method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: route.requestId,
      routeKey: route.routeKey,
      stage: '$default',
      time: clfTime(now),
      timeEpoch: now.getTime(),
    },
    ...(Object.keys(route.pathParameters).length > 0 ? { pathParameters: route.pathParameters } : {}),
    ...(request.body.length > 0 ? { body: request.body.toString(textual ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: request.body.length > 0 && !textual,
  };
}

function joinHeaders(raw: IncomingRequest['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/** Repeated parameters are joined with a comma, as API Gateway does; no query → the field is absent. */
function parseQuery(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    params[name] = name in params ? `${params[name]},${value}` : value;
  }
  return Object.keys(params).length > 0 ? params : undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `12/Mar/2020:19:03:58 +0000`, the format of `requestContext.time`. */
function clfTime(date: Date): string {
  const two = (n: number) => n.toString().padStart(2, '0');
  return (
    `${two(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`
  );
}

/** X-Ray style `Root=1-<epoch hex>-<24 hex>`. */
function traceId(date: Date): string {
  return `Root=1-${Math.floor(date.getTime() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
}
