/**
 * CORS, off by default: one list of allowed origins (env `CORS_ORIGINS`, or CDK context `corsOrigins`, comma
 * separated) and one policy, read by the local server and by infra (API Gateway's `corsPreflight`), so a browser sees
 * the same answers from both. Credentials are bearer tokens in `Authorization`, never cookies, so no
 * `Allow-Credentials`.
 */
export interface CorsPolicy {
  /** Exact origins (`https://app.example.com`), or `['*']`. */
  allowOrigins: string[];
  allowMethods: string[];
  allowHeaders: string[];
  /** Response headers a page's script may read (the rate limit fields, the request id to quote to support). */
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

/** Methods and headers the API takes from a browser: every route method, the bearer token and the JSON body. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const CORS_HEADERS = ['authorization', 'content-type'];
/** What a browser client needs to read to pace itself (RateLimit, Retry-After) and to report a problem (x-request-id). */
export const CORS_EXPOSE_HEADERS = ['ratelimit', 'ratelimit-policy', 'retry-after', 'x-request-id'];
/** How long a browser may keep a preflight answer (API Gateway's maximum is 86 400). */
export const CORS_MAX_AGE_SECONDS = 600;

/** The policy for these origins, or undefined when CORS is off (no origin given). */
export function corsPolicy(origins: readonly string[]): CorsPolicy | undefined {
  if (origins.length === 0) return undefined;
  return {
    allowOrigins: [...origins],
    allowMethods: CORS_METHODS,
    allowHeaders: CORS_HEADERS,
    exposeHeaders: CORS_EXPOSE_HEADERS,
    maxAgeSeconds: CORS_MAX_AGE_SECONDS,
  };
}

/**
 * Parses the origins setting: empty or absent is CORS off; otherwise each comma-separated entry must be an origin
 * exactly as a browser sends it (scheme, host, optional port; no path, no trailing slash), or `*` alone.
 */
export function parseCorsOrigins(value: string | undefined, setting = 'CORS_ORIGINS'): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.includes('*')) {
    if (entries.length > 1) throw new Error(`${setting}: "*" allows every origin and cannot be combined with others`);
    return ['*'];
  }
  for (const entry of entries) {
    let origin: string;
    try {
      const url = new URL(entry);
      origin = url.origin;
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    } catch {
      throw new Error(`${setting}: "${entry}" is not an origin such as https://app.example.com`);
    }
    if (origin !== entry)
      throw new Error(`${setting}: "${entry}" must be written as the origin "${origin}" (no path, no trailing slash)`);
  }
  return [...new Set(entries)];
}

/** The origin a response may name in `Access-Control-Allow-Origin`, or undefined when this origin is not allowed. */
export function allowedOrigin(policy: CorsPolicy, origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  if (policy.allowOrigins.includes('*')) return '*';
  return policy.allowOrigins.includes(origin) ? origin : undefined;
}
