import type { JWTVerifyGetKey } from 'jose';
import type { Clock, Secret } from '../../platform.js';
import type { ApiKeyStore } from '../api-keys/api-key-store.js';
import type { ClientRecord, ClientStore } from '../clients/client-store.js';
import { forbidden, unauthorized } from '../../errors.js';
import { digestsEqual, hashApiKey, looksLikeApiKey } from '../api-keys/api-key.js';
import { rateLimitsOf, type ClientRateLimits } from '../rate-limits/rate-policy.js';
import { DEFAULT_JWT_MAX_LIFETIME_SECONDS } from './jwt-lifetime.js';
import type { SessionRecord, SessionStore } from './session-store.js';
import { digestToken, looksLikeToken, SESSION_IDLE_MS, SESSION_TOUCH_MS } from './session-tokens.js';

export interface Principal {
  clientId: number;
  /** The API key's id; null when authenticated by JWT or a session. */
  keyId: number | null;
  /** The API key's digest (rotation finds the key by it); absent for a JWT or a session. */
  keyHash?: string;
  method: 'api_key' | 'jwt' | 'session';
  /** A dashboard session's record (user, role, CSRF digest); present only when `method` is `session`. */
  session?: SessionRecord;
  /** The client's request rate limits (plan, or the operator's override), read with the client and cached with it. */
  rateLimits: ClientRateLimits;
}

export interface JwtSettings {
  /** The shared HS256 key, read on each JWT (its source caches it, so a rotated key is taken up when that expires). */
  hs256Secret?: Secret;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  clientIdClaim: string;
  /** Longest accepted exp − iat (or exp − now without iat); default 24 h. */
  maxLifetimeSeconds?: number;
}

/** What the authenticator reads: a key by digest, a client profile, a session (and moves its idle expiry). */
export type AuthReads = Pick<ApiKeyStore, 'getByHash'> &
  Pick<ClientStore, 'get'> &
  Pick<SessionStore, 'getSession' | 'touch'> &
  KeyUse;

/** Records a key's use: sets `last_used_at` to `at` only where it is absent or before `staleBefore` (one write an hour). */
export interface KeyUse {
  markUsed(keyHash: string, at: string, staleBefore: string): Promise<void>;
}

interface Deps {
  clock: Clock;
  clients: Pick<ClientStore, 'get'>;
  apiKeys: Pick<ApiKeyStore, 'getByHash'> & Partial<KeyUse>;
  /** Dashboard sessions; without it a session cookie is never accepted. */
  sessions?: Pick<SessionStore, 'getSession' | 'touch'>;
}

/** What a request presents: the Authorization header, and the dashboard's session cookie. */
export interface Credentials {
  authorization?: string;
  sessionId?: string;
}

interface CacheEntry {
  principal: Principal;
  client: ClientRecord;
  expiresAt: number;
}

/**
 * Resolves the Authorization header to a client. Results are cached per container for `cacheTtlMs`
 * (≤ 60 s, DESIGN.md §5); `forget` drops a key at once on the container that rotated or disabled it.
 */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  /**
   * Keys forgotten on this container (rotated or disabled: never valid again). A lookup that read such a key just
   * before it was forgotten must not put it back in the cache when it finishes.
   */
  private readonly forgotten = new Set<string>();
  /** The JWKS resolver, built on the first JWT (it caches the issuer's keys, so there is one per container). */
  private jwksKey?: JWTVerifyGetKey;

  constructor(
    private readonly deps: Deps,
    private readonly jwt: JwtSettings,
    private readonly cacheTtlMs: number,
  ) {}

  async authenticate(header: string | undefined): Promise<Principal> {
    const token = parseAuthorization(header);
    if (looksLikeApiKey(token)) return this.fromApiKey(token);
    if (token.split('.').length === 3) return this.fromJwt(token);
    throw unauthorized('The API key or token is not valid');
  }

  /**
   * The Authorization header when there is one (API key or JWT, as `authenticate`), else the session cookie: one GetItem
   * of the session — never cached, so a sign-out or a removed user ends it at once — and the client from this
   * container's cache.
   */
  async authenticateRequest(credentials: Credentials): Promise<Principal> {
    if (credentials.authorization !== undefined || credentials.sessionId === undefined)
      return this.authenticate(credentials.authorization);
    return this.fromSession(credentials.sessionId);
  }

  forget(keyHash: string): void {
    this.forgotten.add(`key:${keyHash}`);
    this.cache.delete(`key:${keyHash}`);
  }

  private async fromApiKey(key: string): Promise<Principal> {
    const hash = hashApiKey(key);
    const cacheKey = `key:${hash}`;
    const cached = this.cached(cacheKey);
    if (cached) return cached;
    const record = await this.deps.apiKeys.getByHash(hash);
    // The lookup is by digest; the comparison below keeps the final check constant-time.
    if (!record || !digestsEqual(record.key_hash, hash) || !record.enabled) {
      throw unauthorized('The API key is unknown or disabled');
    }
    const client = await this.deps.clients.get(record.client_id);
    if (!client) throw unauthorized('The API key is unknown or disabled');
    // last_used_at at most once an hour: only a cache miss reads the key, and only an hour-old stamp is rewritten.
    const now = this.deps.clock.now();
    const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    if (!record.last_used_at || record.last_used_at < hourAgo)
      await this.deps.apiKeys.markUsed?.(hash, now.toISOString(), hourAgo);
    const principal: Principal = {
      clientId: client.id,
      keyId: record.key_id,
      keyHash: hash,
      method: 'api_key',
      rateLimits: rateLimitsOf(client),
    };
    this.remember(cacheKey, principal, client);
    return this.allowed(principal, client);
  }

  private async fromSession(sessionId: string): Promise<Principal> {
    if (!this.deps.sessions || !looksLikeToken(sessionId))
      throw unauthorized('The session is not valid; sign in again');
    const session = await this.deps.sessions.getSession(digestToken(sessionId));
    const now = this.deps.clock.now();
    // The lookup is by digest, like an API key's. DynamoDB's TTL deletes late: the expiry is checked here.
    if (
      !session ||
      Date.parse(session.idle_expires_at) <= now.getTime() ||
      Date.parse(session.absolute_expires_at) <= now.getTime()
    ) {
      throw unauthorized('The session has expired or ended; sign in again');
    }
    const client = await this.clientOf(session.client_id);
    if (!client) throw unauthorized('The session has expired or ended; sign in again');
    if (now.getTime() - Date.parse(session.last_seen_at) >= SESSION_TOUCH_MS) {
      const idle = new Date(
        Math.min(now.getTime() + SESSION_IDLE_MS, Date.parse(session.absolute_expires_at)),
      ).toISOString();
      await this.deps.sessions.touch(session, now.toISOString(), idle);
    }
    return this.allowed(
      {
        clientId: client.id,
        keyId: null,
        method: 'session',
        session,
        rateLimits: rateLimitsOf(client),
      },
      client,
    );
  }

  /** A client's profile from this container's cache (sessions): kept as long as an API key's answer. */
  private async clientOf(clientId: number): Promise<ClientRecord | undefined> {
    const cacheKey = `client:${clientId}`;
    const entry = this.cache.get(cacheKey);
    if (entry && entry.expiresAt > this.deps.clock.now().getTime()) return entry.client;
    const client = await this.deps.clients.get(clientId);
    if (client)
      this.remember(
        cacheKey,
        {
          clientId,
          keyId: null,
          method: 'session',
          rateLimits: rateLimitsOf(client),
        },
        client,
      );
    return client;
  }

  private async fromJwt(token: string): Promise<Principal> {
    if (!this.jwt.hs256Secret && !this.jwt.jwksUrl) throw unauthorized('JWT authentication is not configured');
    // jose loads with the first JWT a container sees: API-key traffic never pays for it.
    const { hs256Key, jwksKey, verifyJwt } = await import('./verify-jwt.js');
    if (!this.jwt.hs256Secret) this.jwksKey ??= jwksKey(this.jwt.jwksUrl!);
    const key = this.jwt.hs256Secret ? hs256Key(await this.jwt.hs256Secret.value()) : this.jwksKey!;
    const payload = await verifyJwt(
      token,
      key,
      {
        issuer: this.jwt.issuer,
        audience: this.jwt.audience,
        algorithms: this.jwt.hs256Secret ? ['HS256'] : undefined,
        maxLifetimeSeconds: this.jwt.maxLifetimeSeconds ?? DEFAULT_JWT_MAX_LIFETIME_SECONDS,
      },
      this.deps.clock.now(),
    );
    const claim = payload[this.jwt.clientIdClaim];
    const clientId = typeof claim === 'number' ? claim : typeof claim === 'string' ? Number(claim) : NaN;
    if (!Number.isInteger(clientId) || clientId <= 0) throw unauthorized('The token does not name a client');
    const cacheKey = `jwt-client:${clientId}`;
    const cached = this.cached(cacheKey);
    if (cached) return cached;
    const client = await this.deps.clients.get(clientId);
    if (!client) throw unauthorized('The token does not name a known client');
    const principal: Principal = {
      clientId,
      keyId: null,
      method: 'jwt',
      rateLimits: rateLimitsOf(client),
    };
    this.remember(cacheKey, principal, client);
    return this.allowed(principal, client);
  }

  private cached(cacheKey: string): Principal | undefined {
    const entry = this.cache.get(cacheKey);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.deps.clock.now().getTime()) {
      this.cache.delete(cacheKey);
      return undefined;
    }
    return this.allowed(entry.principal, entry.client);
  }

  private remember(cacheKey: string, principal: Principal, client: ClientRecord): void {
    if (this.cacheTtlMs > 0 && !this.forgotten.has(cacheKey)) {
      this.cache.set(cacheKey, { principal, client, expiresAt: this.deps.clock.now().getTime() + this.cacheTtlMs });
    }
  }

  private allowed(principal: Principal, client: ClientRecord): Principal {
    if (client.status === 'suspended') throw forbidden('client', 'The client account is suspended');
    return principal;
  }
}

/** `Bearer <token>` (preferred) or the raw key alone. */
export function parseAuthorization(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw unauthorized('The Authorization header is required');
  const value = header.trim();
  const bearer = /^Bearer\s+(\S+)$/i.exec(value);
  if (bearer?.[1]) return bearer[1];
  if (/\s/.test(value)) throw unauthorized('The Authorization header is malformed');
  return value;
}
