import { MemorySettingsStore } from './settings-store.js';
import type { Clock, IdEntity, Ids } from '../../platform.js';
import { MemoryRateCounter } from './rate-counter.js';
import { holdersOf } from '../../domain/api-keys/key-holders.js';
import { roleGrants } from '../../domain/users/roles.js';
import { MemoryAccounts, MemorySessionStore, MemoryUserStore } from './user-store.js';
import type { RateLimitOverride } from '../../domain/rate-limits/rate-policy.js';
import type { ApiKeyChanges, ApiKeyRecord, ApiKeyStore } from '../../domain/api-keys/api-key-store.js';
import type {
  ClientRecord,
  ClientStatus,
  ClientStore,
  DeliverabilityBaseline,
} from '../../domain/clients/client-store.js';

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
  /** The users (when wired): a key is made only for a user that may hold keys. */
  accounts?: MemoryAccounts;

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
  async list(clientId: number): Promise<ApiKeyRecord[]> {
    return [...this.keys.values()]
      .filter((k) => k.client_id === clientId)
      .sort((a, b) => a.key_id - b.key_id)
      .map((k) => structuredClone(k));
  }
  async create(key: ApiKeyRecord): Promise<'created' | 'holder_gone'> {
    if (this.keys.has(key.key_hash)) throw new Error('key exists');
    if (!this.holdersMayHold(key)) return 'holder_gone';
    this.keys.set(key.key_hash, structuredClone(key));
    return 'created';
  }
  /** Each user the key belongs to still exists with a role that may hold keys (when users are wired). */
  private holdersMayHold(key: ApiKeyRecord): boolean {
    if (!this.accounts) return true;
    return holdersOf(key).every((id) => {
      const user = this.accounts!.users.get(`${key.client_id}/${id}`);
      if (!user || !roleGrants(user.role, 'keys')) return false;
      user.api_key_version = (user.api_key_version ?? 0) + 1;
      return true;
    });
  }
  async replace(
    client: ClientRecord,
    old: ApiKeyRecord,
    next: ApiKeyRecord,
    at: string,
  ): Promise<'rotated' | 'conflict' | 'holder_gone'> {
    if (client.api_key_hash === old.key_hash) return this.rotate(client, next, at);
    const stored = this.keys.get(old.key_hash);
    if (!stored?.enabled) return 'conflict';
    if (!this.holdersMayHold(next)) return 'holder_gone';
    Object.assign(stored, { enabled: false, disabled_at: at });
    this.keys.set(next.key_hash, structuredClone(next));
    return 'rotated';
  }
  async update(client: ClientRecord, key: ApiKeyRecord, changes: ApiKeyChanges, at: string): Promise<boolean> {
    const stored = this.keys.get(key.key_hash);
    if (!stored || stored.client_id !== key.client_id) return false;
    if (changes.label !== undefined) stored.label = changes.label;
    if (changes.enabled !== undefined) {
      stored.enabled = changes.enabled;
      if (changes.enabled) delete stored.disabled_at;
      else stored.disabled_at = at;
      const profile = this.clients?.clients.get(client.id);
      if (profile && profile.api_key_hash === key.key_hash)
        Object.assign(profile, { api_key_enabled: changes.enabled, updated_at: at });
    }
    return true;
  }
  async remove(client: ClientRecord, key: ApiKeyRecord, at: string): Promise<boolean> {
    const stored = this.keys.get(key.key_hash);
    if (!stored || stored.client_id !== key.client_id) return false;
    this.keys.delete(key.key_hash);
    const profile = this.clients?.clients.get(client.id);
    if (profile && profile.api_key_hash === key.key_hash)
      Object.assign(profile, { api_key_enabled: false, updated_at: at });
    return true;
  }
  async markUsed(keyHash: string, at: string, staleBefore: string): Promise<void> {
    const stored = this.keys.get(keyHash);
    if (stored && (!stored.last_used_at || stored.last_used_at < staleBefore)) stored.last_used_at = at;
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
  accounts.apiKeys = apiKeys.keys;
  apiKeys.accounts = accounts;
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
      markUsed: (keyHash: string, at: string, staleBefore: string) => apiKeys.markUsed(keyHash, at, staleBefore),
      getSession: (hash: string) => sessions.getSession(hash),
      touch: (...args: Parameters<MemorySessionStore['touch']>) => sessions.touch(...args),
    },
    settings: new MemorySettingsStore(clients),
    ids: new MemoryIds(),
    clock: new FixedClock(),
    rateCounter: new MemoryRateCounter(),
  };
}
