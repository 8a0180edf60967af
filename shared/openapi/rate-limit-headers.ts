/** The RateLimit response fields as the document states them (shared/http/rate-limit-headers.ts writes them). */
import type { ErrorStatus } from '../http/contract.js';
import type { JsonSchema } from './json-schema.js';

/** `components.headers`: each field once, referenced by every response that carries it. */
export const RATE_LIMIT_HEADER_COMPONENTS: Record<string, JsonSchema> = {
  RateLimit: {
    description:
      "The client's standing in its current window (IETF RateLimit fields, draft-ietf-httpapi-ratelimit-headers): " +
      '`r` requests left, `t` seconds until the window resets. Left out when the count could not be read.',
    schema: { type: 'string', examples: ['"api";r=49;t=1'] },
  },
  'RateLimit-Policy': {
    description:
      'The client\'s rate limit policy that counted the request: `"api"` (every authenticated route but POST ' +
      '/client/events) or `"events"` (POST /client/events); `q` requests per `w` seconds, from the plan ' +
      '(SubscriptionPlan `api_requests_per_second`, `event_requests_per_second`) or an override for the client. On a ' +
      '429 of a request no client answers for (a public route, or a credential that failed): `"ip"`, the caller\'s ' +
      'IP (an IPv6 address by its /64), `q` requests per `w=60` seconds.',
    schema: { type: 'string', examples: ['"api";q=50;w=1'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before sending again (the end of the current window).',
    schema: { type: 'integer', minimum: 1, examples: [1] },
  },
};

const ref = (name: string): JsonSchema => ({ $ref: `#/components/headers/${name}` });

/** What an authenticated route answers with, whatever its status: the policy and the client's standing. */
export const rateLimitHeaderRefs = (): Record<string, JsonSchema> => ({
  'RateLimit-Policy': ref('RateLimit-Policy'),
  RateLimit: ref('RateLimit'),
});

/**
 * The headers an error status's shared response documents: 429 always carries all three; the other statuses an
 * authenticated route can answer carry the RateLimit fields when the request got past authentication. 401 (no
 * client yet) and 431 (refused before any route) never do.
 */
export function errorHeaderRefs(status: ErrorStatus): Record<string, JsonSchema> | undefined {
  if (status === 429) return { ...rateLimitHeaderRefs(), 'Retry-After': { ...ref('Retry-After'), required: true } };
  if (status === 401 || status === 431) return undefined;
  return rateLimitHeaderRefs();
}
