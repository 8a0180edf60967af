import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from './batch-get.js';
import type { ItemKey } from './keys.js';

type Item = Record<string, unknown>;

/** What `take` answers: the items it held (null: known to be absent) and the keys still to read. */
export interface CacheSplit {
  cached: Map<string, Item | null>;
  missing: ItemKey[];
  /** Pass to `remember`: a forget since then means the read may predate a write, so it is not kept. */
  generation: number;
}

/**
 * A container's copy of client configuration items — settings, profile, customizations, client templates, all under
 * `CLIENT#<id>` — as the engine's reads fetched them (without it every event and every send reads them
 * again, 3–8 RCU on the client's one key). Absent items are remembered too: most clients customize few workflows.
 * An entry lives `ttlMs`; a write through the same container forgets the client's entries at once (forgetClient),
 * so only another container's write can be missed, for at most `ttlMs`. `ttlMs` 0 keeps nothing.
 */
export class ConfigCache {
  private readonly entries = new Map<string, { item: Item | null; until: number }>();
  private generation = 0;
  /** Reads served from the cache, and reads that went to the table (benchmarks). */
  hits = 0;
  misses = 0;

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Splits `wanted` into what is held and fresh, and what must be read. */
  take(wanted: readonly ItemKey[]): CacheSplit {
    const cached = new Map<string, Item | null>();
    const missing: ItemKey[] = [];
    const now = this.now();
    for (const key of wanted) {
      const entry = this.entries.get(cacheKeyOf(key));
      if (entry && entry.until > now) {
        cached.set(cacheKeyOf(key), entry.item);
        this.hits += 1;
      } else {
        missing.push(key);
        this.misses += 1;
      }
    }
    return { cached, missing, generation: this.generation };
  }

  /** Keeps what was read for `keys` (items found among `items`, the others as absent), unless a write came between. */
  remember(keys: readonly ItemKey[], items: readonly Item[], generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.generation) return;
    const found = new Map(items.map((item) => [cacheKeyOf(item as unknown as ItemKey), item]));
    const until = this.now() + this.ttlMs;
    for (const key of keys) this.entries.set(cacheKeyOf(key), { item: found.get(cacheKeyOf(key)) ?? null, until });
  }

  /** Forgets every item of a client's configuration key (`pk`), after a write to any of them. */
  forget(pk: string): void {
    this.generation += 1;
    for (const k of this.entries.keys()) if (k.startsWith(`${pk}\u0000`)) this.entries.delete(k);
  }
}

export const cacheKeyOf = (key: ItemKey): string => `${key.pk}\u0000${key.sk}`;

/**
 * One BatchGetItem wave for `other` keys (never cached: contacts, counters) and the `config` keys the cache does not
 * hold; what was read of `config` is remembered. A cache hit on every config key and no other key: no request.
 */
export async function batchGetWithConfig(
  db: DynamoDBDocumentClient,
  tableName: string,
  cache: ConfigCache | undefined,
  other: readonly ItemKey[],
  config: readonly ItemKey[],
): Promise<Item[]> {
  if (!cache || cache.ttlMs <= 0) return batchGetItems(db, tableName, [...other, ...config]);
  const { cached, missing, generation } = cache.take(config);
  const items = await batchGetItems(db, tableName, [...other, ...missing]);
  const read = new Set(missing.map(cacheKeyOf));
  cache.remember(
    missing,
    items.filter((item) => read.has(cacheKeyOf(item as unknown as ItemKey))),
    generation,
  );
  return [...items, ...[...cached.values()].filter((item): item is Item => item !== null)];
}
