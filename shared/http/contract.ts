import type * as z from '../validation/zod.js';
import type { RatePolicyName } from '../domain/rate-limits/rate-policy.js';
import type { LambdaHandler } from './chain.js';
import type { ApiResult } from './envelope.js';
import type { InputSchemas } from './middleware/parse-input.js';

/**
 * A route's contract: what its handler module declares once and passes to its wrapper (`jsonApi(contract, …)`).
 * The wrapper validates the inputs with it, type-checks what the route answers against it, and attaches it to the
 * handler, so the OpenAPI document (shared/openapi/) is built from the same objects. Paths and methods stay in
 * functions/routes.ts; security and the errors every route of a kind can give come from the wrapper.
 */

/** The error statuses a route can answer; each wrapper implies some, a route declares the others it gives. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 431 | 500;

/**
 * A success answer. A zod schema is the envelope's `data`; `{ data, meta }` adds the route's own `meta` fields
 * (pagination, request counts) beside `request_id`; `{ document }` is a JSON body answered without the envelope.
 */
export type SuccessSpec =
  | z.ZodMiniType
  | { data: z.ZodMiniType; meta?: z.ZodMiniObject; description?: string }
  | { document: z.ZodMiniType; description?: string };

interface RouteText {
  /** One line, imperative: "Create a contact". */
  summary: string;
  /** What the route does beyond the summary (Markdown). */
  description?: string;
  /** Overrides the tag the document derives from the path (`/client/contacts/…` → Contacts). */
  tags?: readonly string[];
}

/** The contract of a JSON route (`jsonApi`, `rawBodyApi`, `publicApi`). */
export interface RouteContract extends InputSchemas, RouteText {
  /** Success statuses and their bodies. */
  responses: { readonly [status: number]: SuccessSpec };
  /** Error statuses the route gives beyond those its wrapper implies (typically 404, 409). */
  errors?: readonly ErrorStatus[];
  /** A multipart/form-data body the route reads itself (`rawBodyApi`): its fields, for the document only. */
  form?: z.ZodMiniObject;
  /** Which of the client's rate limits the route counts against (default `api`; the ingest route: `events`). */
  rateLimit?: RatePolicyName;
}

/** The contract of a public HTML page (`publicPage`). */
export interface PageContract extends Pick<InputSchemas, 'params' | 'query'>, RouteText {
  /** Each status the page answers with, and what that page says. */
  pages: { readonly [status: number]: string };
  /** The media types it answers (default `text/html`): a route serving files lists theirs. */
  contentTypes?: readonly string[];
  /**
   * A form-encoded body the page accepts: RFC 8058 one-click (read by the route, for the document only), or an
   * authenticated page's form (`clientPage`: validated with this schema, its CSRF token a field of the form).
   */
  form?: z.ZodMiniObject;
  /** Error statuses an authenticated page gives beyond those its wrapper implies (typically 404). */
  errors?: readonly ErrorStatus[];
}

/** What a wrapped handler carries for the document: its contract and what its wrapper adds. */
export type HandlerContract =
  | { kind: 'json'; auth: 'client' | 'none'; impliedErrors: readonly ErrorStatus[]; route: RouteContract }
  | { kind: 'page'; auth: 'client' | 'none'; impliedErrors: readonly ErrorStatus[]; route: PageContract };

export type DescribedHandler = LambdaHandler & { readonly contract: HandlerContract };

/** 422 when the route has input to validate (path, query, body or form): the zod issues of `parseInput`. */
export const validationErrors = (contract: InputSchemas & { form?: unknown }): ErrorStatus[] =>
  contract.params || contract.query || contract.body || contract.form ? [422] : [];

/** Attaches the contract to the handler (the Lambda entry point stays a plain function). */
export const describeHandler = (handler: LambdaHandler, contract: HandlerContract): DescribedHandler =>
  Object.assign(handler, { contract });

type DataOf<S> = S extends z.ZodMiniType
  ? z.output<S>
  : S extends { data: infer D extends z.ZodMiniType }
    ? z.output<D>
    : S extends { document: infer D extends z.ZodMiniType }
      ? z.output<D>
      : never;

type BareOf<S> = S extends { document: z.ZodMiniType } ? { bare: true } : unknown;

/** What a route may answer: one of its declared success statuses, with `data` of that status's schema. */
export type ResultOf<R> = { [K in keyof R & number]: ApiResult<DataOf<R[K]>, K> & BareOf<R[K]> }[keyof R & number];
