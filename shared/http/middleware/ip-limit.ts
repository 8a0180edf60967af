import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AppError, rateLimited } from '../../errors.js';
import type { IpRateDecision, IpRateLimiter } from '../../domain/rate-limits/ip-limit.js';
import { rateLimitHeaders } from '../rate-limit-headers.js';
import type { ApiMiddleware, ApiRequest } from './types.js';

/** The caller's address as API Gateway saw it (the socket's peer locally, local/server.ts). */
const sourceIpOf = (event: APIGatewayProxyEventV2): string | undefined => event.requestContext?.http?.sourceIp;

function refuse(request: ApiRequest, decision: IpRateDecision): AppError {
  request.context.api.headers = { ...request.context.api.headers, ...rateLimitHeaders(decision) };
  return rateLimited(
    `Too many requests from this address: at most ${decision.limit} a minute without a valid credential; retry after ${decision.resetSeconds} s`,
  );
}

/**
 * A route no client answers for (public pages and links, sign-in, docs, the dashboard's files): every request counts
 * against its IP's per-minute limit before anything else runs; past it, 429 `rate_limited` with Retry-After.
 */
export function anonymousIpLimit(getLimiter: () => IpRateLimiter): ApiMiddleware {
  return {
    before: async (request) => {
      const decision = await getLimiter().consume(sourceIpOf(request.event));
      if (decision && !decision.allowed) throw refuse(request, decision);
    },
  };
}

/**
 * An authenticated route: a valid credential is never counted here (the client's own limit applies, and a tenant
 * sharing an address with a flood is served). A request whose credential fails (401) counts against its IP and past
 * the limit answers 429 instead; once this container saw the address over, that costs no write (the limiter's
 * memory), and a missing credential is refused before any read.
 */
export function failedCredentialIpLimit(getLimiter: () => IpRateLimiter): ApiMiddleware {
  return {
    onError: async (request) => {
      const error = request.error;
      if (!(error instanceof AppError) || error.status !== 401 || request.context.api?.principal) return;
      const decision = await getLimiter().consume(sourceIpOf(request.event));
      if (decision && !decision.allowed) request.error = refuse(request, decision);
    },
  };
}
