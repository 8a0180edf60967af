import { Authenticator } from '../../domain/auth/authenticate.js';
import { configuredSecret } from '../configured-secret.js';
import { provide } from '../container.js';
import { authReads } from './auth-reads.js';
import { clock } from './clock.js';

/** One per container: its cache is what `forget` clears on the container that rotated a key. */
export const authenticator = provide('authenticator', (c) => {
  const { config } = c;
  const reads = c.use(authReads);
  return new Authenticator(
    { clock: c.use(clock), clients: reads, apiKeys: reads, sessions: reads },
    {
      // JWT_HS256_SECRET locally, JWT_HS256_SECRET_ARN on AWS: read on the first JWT, so API-key traffic never reads it.
      hs256Secret: configuredSecret(config, 'JWT_HS256_SECRET'),
      jwksUrl: config.JWT_JWKS_URL,
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      clientIdClaim: config.JWT_CLIENT_ID_CLAIM,
      maxLifetimeSeconds: config.JWT_MAX_LIFETIME_SECONDS,
    },
    config.AUTH_CACHE_TTL_SECONDS * 1000,
  );
});
