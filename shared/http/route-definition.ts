/**
 * What a route is: the shape of an entry of the route table (functions/routes.ts) and what follows from one entry
 * alone (its full path, whether it authenticates, its API Gateway route key). It lives here, below functions/, because
 * the shared HTTP code (route matching, overlap checks, the OpenAPI builder) reads routes and shared/ imports nothing
 * from the layers above it.
 */
import type { StaticPackage } from './static-files.js';
import type { QueueName } from '../platform.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** What a handler may do to the table; infra grants exactly this and nothing more. */
export type TableAccess = 'read' | 'readWrite';

export interface RouteDefinition {
  method: HttpMethod;
  /** Path below the API base (`/api/v1`), API Gateway syntax: `/client/contacts/{id}`. */
  path: string;
  /** Module under functions/http/ (without extension) whose `handler` export serves the route. */
  handler: string;
  tableAccess: TableAccess;
  /** Maximum run time in seconds (default 10). */
  timeoutSeconds?: number;
  /** Memory in MB (default 512). */
  memoryMb?: number;
  /** Queues the handler sends to: sqs:SendMessage on exactly those, their URLs in `<NAME>_QUEUE_URL`. */
  sendsTo?: readonly QueueName[];
  /** Creates one-time EventBridge schedules targeting the workflow queue. */
  schedules?: boolean;
  /** Sends e-mail through SES (a synchronously processed event never sends; only queue functions do). */
  sendsEmail?: boolean;
  /** Creates, reads and deletes clients' SES tenants and domain identities, and reads DNS (sending domains). */
  managesSenders?: boolean;
  /** Served at the API's root instead of below `/api/v1` (the public links in e-mails: `/u/…`, `/v/…`). */
  root?: boolean;
  /** Answers HTML pages (public links, the API reference) or files rather than the JSON envelope. */
  html?: boolean;
  /** Files of an npm package shipped beside the function's bundle, never inside it (shared/http/static-files.ts). */
  staticFiles?: StaticPackage;
  /** Answers its success as a JSON document of its own rather than in the envelope (the OpenAPI document). */
  bareJson?: boolean;
  /** Signs or verifies public link tokens or cursors: reads the link secret (LINK_SECRET; on AWS LINK_SECRET_ARN). */
  usesLinkSecret?: boolean;
  /**
   * Takes a client's bulk writes (events, imports): API Gateway gives the route a throttle of its own (context
   * `ingestThrottleRateLimit` / `ingestThrottleBurstLimit`), so an ingest burst and the rest of the API do not share one.
   */
  ingest?: boolean;
  /** Served by the local runtime only (developer tools such as replaying SES notifications); absent from AWS. */
  localOnly?: boolean;
}

export const API_BASE_PATH = '/api/v1';

/** The route's path from the API's root: `/api/v1/client/contacts/{id}`, or `/u/{token}` for a root route. */
export function fullPath(route: RouteDefinition): string {
  return route.root ? route.path : `${API_BASE_PATH}${route.path}`;
}

/**
 * The route authenticates its caller (API key or JWT): every route below `/client` and no other (DESIGN.md §4), so
 * infra gives these, and only these, the JWT secret.
 */
export function authenticates(route: RouteDefinition): boolean {
  return !route.root && route.path.startsWith('/client/');
}

/** `routeKey` as API Gateway HTTP API reports it, e.g. `GET /api/v1/client/contacts/{id}`. */
export function routeKey(route: RouteDefinition): string {
  return `${route.method} ${fullPath(route)}`;
}
