/**
 * The arithmetic of the counters' bench (scripts/bench/stats.ts): capacity units as DynamoDB reports
 * them, an item's size and write units by DynamoDB's documented rules (the cross-check of what DynamoDB Local
 * reports), and what counting adds to a fact against its targets. Pure: unit-tested in test/unit/scripts/bench.
 */

/**
 * Capacity units a piece of work consumed. `read` and `write`: as DynamoDB Local reports them (ReturnConsumedCapacity,
 * indexes included). `ruleWrite`: the table's write units by DynamoDB's documented rule, item by item (writeUnits of
 * the larger of the item's images, doubled in a transaction) — DynamoDB Local's transaction figures do not follow
 * it. `counterItems` / `counterWrite`: the day-counter rows among those writes, and their share of `ruleWrite`.
 */
export interface Capacity {
  read: number;
  write: number;
  ruleWrite: number;
  counterItems: number;
  counterWrite: number;
}

export const noCapacity = (): Capacity => ({ read: 0, write: 0, ruleWrite: 0, counterItems: 0, counterWrite: 0 });

export function addCapacity(into: Capacity, add: Partial<Capacity>): Capacity {
  for (const key of Object.keys(into) as (keyof Capacity)[]) into[key] += add[key] ?? 0;
  return into;
}

/** One item a write request wrote: its images before and after (undefined: absent), in a transaction or not. */
export interface ItemWrite {
  before: Record<string, unknown> | undefined;
  after: Record<string, unknown> | undefined;
  transactional: boolean;
  counter: boolean;
}

/** The rule's write units of a request's items, and the counter rows' share. */
export function ruleCapacity(
  writes: readonly ItemWrite[],
): Pick<Capacity, 'ruleWrite' | 'counterItems' | 'counterWrite'> {
  let ruleWrite = 0;
  let counterItems = 0;
  let counterWrite = 0;
  for (const w of writes) {
    const bytes = Math.max(w.before ? itemBytes(w.before) : 0, w.after ? itemBytes(w.after) : 0);
    const units = writeUnits(bytes, w.transactional);
    ruleWrite += units;
    if (w.counter) {
      counterItems += 1;
      counterWrite += units;
    }
  }
  return { ruleWrite, counterItems, counterWrite };
}

/** `ConsumedCapacity` of a response, one table's (an array for batches and transactions). */
export interface ConsumedCapacityLike {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const READ_COMMANDS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);

/** The units one response reports, as reads or writes by its command (`CapacityUnits` is the total, indexes included). */
export function capacityOf(
  command: string,
  consumed: ConsumedCapacityLike | ConsumedCapacityLike[] | undefined,
): Pick<Capacity, 'read' | 'write'> {
  const units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce(
    (sum, c) => sum + (c.CapacityUnits ?? 0),
    0,
  );
  return READ_COMMANDS.has(command) ? { read: units, write: 0 } : { read: 0, write: units };
}

/**
 * An item's size as DynamoDB bills it (docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 * each attribute's name (UTF-8 bytes) plus its value — a string its UTF-8 bytes, a number 1 byte per two significant
 * digits plus 1, a boolean or null 1, binary its bytes, a list or map 3 bytes plus its elements plus 1 byte each, a
 * set its elements.
 */
export function itemBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name, 'utf8') + valueBytes(value),
    0,
  );
}

function valueBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number' || typeof value === 'bigint') return numberBytes(String(value));
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce<number>((sum, v) => sum + valueBytes(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, v) => sum + 1 + valueBytes(v), 0);
  if (typeof value === 'object') {
    return (
      3 +
      Object.entries(value as Record<string, unknown>).reduce(
        (sum, [k, v]) => sum + 1 + Buffer.byteLength(k, 'utf8') + valueBytes(v),
        0,
      )
    );
  }
  throw new TypeError(`No DynamoDB size for a ${typeof value}`);
}

/** 1 byte per two significant digits (leading and trailing zeros trimmed), plus 1. */
function numberBytes(text: string): number {
  const digits = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

/** Write units of one item write: 1 per started KB of the item (the larger of its images), doubled in a transaction. */
export function writeUnits(bytes: number, transactional: boolean): number {
  return Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);
}

/**
 * One fact's operation as measured (mean over its samples): DynamoDB requests; `wcu` the table's write units by
 * DynamoDB's rule, item by item; `reportedWcu` / `rcu` what DynamoDB Local reported; the counter rows written.
 */
export interface OperationCost {
  requests: number;
  wcu: number;
  reportedWcu: number;
  rcu: number;
  counterItems: number;
  counterWcu: number;
  samples: number;
}

/** The mean of the samples' figures (each sample one delivery or call). */
export function meanCost(samples: { requests: number; capacity: Capacity }[]): OperationCost {
  const n = samples.length;
  const mean = (pick: (s: (typeof samples)[number]) => number) =>
    n === 0 ? NaN : samples.reduce((sum, s) => sum + pick(s), 0) / n;
  return {
    requests: mean((s) => s.requests),
    wcu: mean((s) => s.capacity.ruleWrite),
    reportedWcu: mean((s) => s.capacity.write),
    rcu: mean((s) => s.capacity.read),
    counterItems: mean((s) => s.capacity.counterItems),
    counterWcu: mean((s) => s.capacity.counterWrite),
    samples: n,
  };
}

/** The counters' budget: counting adds no request, and at most 1 WCU, per counted fact. */
export const COUNTER_TARGETS = { extraRequests: 0, extraWcu: 1 } as const;

export interface FactCost {
  fact: string;
  /** Where its counters are written (the transaction that records the fact). */
  where: string;
  with: OperationCost;
  without: OperationCost;
}

export interface FactVerdict {
  extraRequests: number;
  extraWcu: number;
  requestsMet: boolean;
  wcuMet: boolean;
}

/** What counting added to a fact, against the targets. */
export function verdictOf(cost: Pick<FactCost, 'with' | 'without'>): FactVerdict {
  const extraRequests = round(cost.with.requests - cost.without.requests);
  const extraWcu = round(cost.with.wcu - cost.without.wcu);
  return {
    extraRequests,
    extraWcu,
    requestsMet: extraRequests <= COUNTER_TARGETS.extraRequests,
    wcuMet: extraWcu <= COUNTER_TARGETS.extraWcu,
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
