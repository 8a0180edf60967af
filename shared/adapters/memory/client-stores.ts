import type { Clock, IdEntity, Ids } from '../../ports.js';
import { MemoryRateCounter } from './rate-counter.js';
import { MemoryAccounts, MemorySessionStore, MemoryUserStore } from './user-store.js';
import type { RateLimitOverride } from '../../domain/rate-limits/rate-policy.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../domain/api-keys/api-key-store.js';
import type { ClientRecord, ClientStatus, ClientStore, DeliverabilityBaseline } from '../../domain/clients/client-store.js';

/** In-memory adapters for unit tests: same contracts as the DynamoDB ones, no AWS. */
export class MemoryIds implements Ids {
  private readonly counters = new Map<IdEntity, number>();

  async next(entity: IdEntity, count = 1): Promise<number> {
    const last = (this.counters.get(entity) ?? 0) + count;
    this.counters.set(entity, last);
    return last - count + 1;
  }
}

export class FixedClock implements Clock {
  constructor(private current: Date = new Date('2026-01-15T10:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export class MemoryClientStore implements ClientStore {
  readonly clients = new Map<number, ClientRecord>();
  constructor(private readonly keys: MemoryApiKeyStore) {}

  async create(client: ClientRecord, key: ApiKeyRecord): Promise<void> {
    if (this.clients.has(client.id)) throw new Error(`client ${client.id} exists`);
    this.clients.set(client.id, structuredClone(client));
    this.keys.keys.set(key.key_hash, structuredClone(key));
  }
  async get(clientId: number): Promise<ClientRecord | undefined> {
    const c = this.clients.get(clientId);
    return c && structuredClone(c);
  }
  async list(): Promise<ClientRecord[]> {
    return [...this.clients.values()].map((c) => structuredClone(c));
  }
  async setStatus(clientId: number, status: ClientStatus, at: string): Promise<void> {
    const c = this.clients.get(clientId);
    if (!c) throw new Error(`client ${clientId} not found`);
    Object.assign(c, { status, updated_at: at });
  }

  async setRateLimits(clientId: number, limits: RateLimitOverride | undefined, at: string): Promise<void> {
    const c = this.clients.get(clientId);
    if (!c) throw new Error(`client ${clientId} not found`);
    if (limits) c.rate_limits = structuredClone(limits);
    else delete c.rate_limits;
    c.updated_at = at;
  }

  async pauseSending(clientId: number, at: string, reason: string): Promise<boolean> {
    const c = this.clients.get(clientId);
    if (!c || c.sending_paused_at) return false;
    Object.assign(c, { sending_paused_at: at, sending_paused_reason: reason, updated_at: at });
    return true;
  }

  async resumeSending(clientId: number, baseline: DeliverabilityBaseline): Promise<boolean> {
    const c = this.clients.get(clientId);
    if (!c || !c.sending_paused_at) return false;
    delete c.sending_paused_at;
    delete c.sending_paused_reason;
    Object.assign(c, { sending_resumed: baseline, updated_at: baseline.at });
    return true;
  }
}

export class MemoryApiKeyStore implements ApiKeyStore {
  readonly keys = new Map<string, ApiKeyRecord>();
  clients?: MemoryClientStore;

  async getByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const k = this.keys.get(keyHash);
    return k && structuredClone(k);
  }
  async rotate(client: ClientRecord, next: ApiKeyRecord, at: string): Promise<'rotated' | 'conflict'> {
    const current = this.clients?.clients.get(client.id);
    if (current && current.api_key_hash !== client.api_key_hash) return 'conflict';
    const old = this.keys.get(client.api_key_hash);
    if (old) Object.assign(old, { enabled: false, disabled_at: at });
    this.keys.set(next.key_hash, structuredClone(next));
    const stored = this.clients?.clients.get(client.id);
    if (stored) {
      Object.assign(stored, {
        api_key_id: next.key_id,
        api_key_hash: next.key_hash,
        api_key_masked: next.masked_key,
        api_key_enabled: true,
        updated_at: at,
      });
    }
    return 'rotated';
  }
  async disableCurrent(client: ClientRecord, at: string): Promise<void> {
    const k = this.keys.get(client.api_key_hash);
    if (k) Object.assign(k, { enabled: false, disabled_at: at });
    const stored = this.clients?.clients.get(client.id);
    if (stored) Object.assign(stored, { api_key_enabled: false, updated_at: at });
  }
}

/** A wired set of the in-memory client/key adapters. */
export function memoryClientAdapters() {
  const apiKeys = new MemoryApiKeyStore();
  const clients = new MemoryClientStore(apiKeys);
  apiKeys.clients = clients;
  const accounts = new MemoryAccounts();
  const sessions = new MemorySessionStore(accounts);
  return {
    apiKeys,
    clients,
    users: new MemoryUserStore(accounts),
    sessions,
    // The authenticator's reads, from the same stores (DynamoAuthReads on AWS).
    authReads: {
      get: (clientId: number) => clients.get(clientId),
      getByHash: (keyHash: string) => apiKeys.getByHash(keyHash),
      getSession: (hash: string) => sessions.getSession(hash),
      touch: (...args: Parameters<MemorySessionStore['touch']>) => sessions.touch(...args),
    },
    ids: new MemoryIds(),
    clock: new FixedClock(),
    rateCounter: new MemoryRateCounter(),
  };
}
