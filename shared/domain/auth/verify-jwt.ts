import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { unauthorized } from '../../errors.js';

/** What a bearer JWT must satisfy besides its signature. */
export interface JwtRules {
  issuer?: string;
  audience?: string;
  /** Only HS256 when verifying with a shared secret; a JWKS names its own algorithms. */
  algorithms?: string[];
  /** Longest accepted validity, from `iat` (or from now, without one) to `exp`. */
  maxLifetimeSeconds: number;
}

export { DEFAULT_JWT_MAX_LIFETIME_SECONDS } from './jwt-lifetime.js';

/*
 * This module is loaded on the first JWT (authenticate.ts): its static imports keep esbuild's tree-shaking of jose,
 * which a dynamic `import('jose')` would lose.
 */

/** The key of HS256 JWTs: the shared secret's bytes (cheap, so built from the secret's current value each time). */
export const hs256Key = (secret: string): Uint8Array => new TextEncoder().encode(secret);

/** The issuer's JWKS, fetched and cached by jose: build it once per container. */
export const jwksKey = (jwksUrl: string): JWTVerifyGetKey => createRemoteJWKSet(new URL(jwksUrl));

/**
 * Verifies signature, issuer, audience and expiry with jose, requires `exp`, and bounds the lifetime: a token
 * without `exp` never expires, and a leaked long-lived token is as good as a password. A 401 says which rule failed.
 */
export async function verifyJwt(
  token: string,
  key: Uint8Array | JWTVerifyGetKey,
  rules: JwtRules,
  now: Date,
): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key as Uint8Array, {
      issuer: rules.issuer,
      audience: rules.audience,
      algorithms: rules.algorithms,
      requiredClaims: ['exp'],
      currentDate: now,
    }));
  } catch (error) {
    throw unauthorized(reason(error));
  }
  // jose's maxTokenAge measures time since `iat` and needs one; this bounds exp itself. A future `iat` counts from
  // now, so it cannot stretch the window.
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const start = payload.iat === undefined ? nowSeconds : Math.min(payload.iat, nowSeconds);
  if (payload.exp! - start > rules.maxLifetimeSeconds) {
    throw unauthorized(`The token lifetime exceeds ${describeSeconds(rules.maxLifetimeSeconds)}`);
  }
  return payload;
}

function reason(error: unknown): string {
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'exp' && error.reason === 'missing') {
    return 'The token has no exp claim';
  }
  if (error instanceof errors.JWTExpired) return 'The token has expired';
  // Signature, issuer, audience, algorithm: one answer, so a caller learns nothing about the key or the settings.
  return 'The token is invalid';
}

/** `86400` → `24 h`, `90` → `90 s`. */
function describeSeconds(seconds: number): string {
  return seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}
