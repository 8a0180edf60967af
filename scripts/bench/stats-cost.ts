/**
 * The arithmetic of the counters' bench (scripts/bench/stats.ts): capacity units as DynamoDB reports them, an item's
 * size and write units by DynamoDB's documented rules (the cross-check of what DynamoDB Local reports), the
 * projection's write units per fact as a stream mapping would batch the facts, and the targets those figures are
 * judged against. Pure: unit-tested in test/unit/scripts/bench.
 */

/**
 * Capacity units a piece of work consumed. `read` and `write`: as DynamoDB Local reports them (ReturnConsumedCapacity,
 * indexes included). `ruleWrite`: the table's write units by DynamoDB's documented rule, item by item (writeUnits of
 * the larger of the item's images, doubled in a transaction) — DynamoDB Local's transaction figures do not follow
 * it. `counterItems` / `counterWrite`: the day-counter rows among those writes, and their share of `ruleWrite`;
 * `counterRequests`: the write requests that named at least one of them.
 */
export interface Capacity {
  read: number;
  write: number;
  ruleWrite: number;
  counterItems: number;
  counterWrite: number;
  counterRequests: number;
}

export const noCapacity = (): Capacity => ({
  read: 0,
  write: 0,
  ruleWrite: 0,
  counterItems: 0,
  counterWrite: 0,
  counterRequests: 0,
});

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

/** The rule's write units of one request's items, the counter rows' share, and whether it wrote any counter row. */
export function ruleCapacity(
  writes: readonly ItemWrite[],
): Pick<Capacity, 'ruleWrite' | 'counterItems' | 'counterWrite' | 'counterRequests'> {
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
  return { ruleWrite, counterItems, counterWrite, counterRequests: counterItems > 0 ? 1 : 0 };
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
 * DynamoDB's rule, item by item; `reportedWcu` / `rcu` what DynamoDB Local reported; the counter rows it wrote and the
 * requests that wrote them (the projection is their only writer now: both must be 0).
 */
export interface OperationCost {
  requests: number;
  wcu: number;
  reportedWcu: number;
  rcu: number;
  counterItems: number;
  counterWcu: number;
  counterRequests: number;
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
    counterRequests: mean((s) => s.capacity.counterRequests),
    samples: n,
  };
}

/**
 * The counters' budget. A fact's own operation writes no counter (no request, no write unit); the projection spends
 * at most 1 WCU per counted fact, amortised over its batches; a client's 90-day read is one request.
 */
export const COUNTER_TARGETS = {
  writerCounterRequests: 0,
  writerCounterWcu: 0,
  projectionWcuPerFact: 1,
  readRequests: 1,
} as const;

/** Whether a fact's operation kept off the counters (NaN, no sample, never meets). */
export const writerMeets = (cost: OperationCost): boolean =>
  cost.samples > 0 &&
  cost.counterRequests <= COUNTER_TARGETS.writerCounterRequests &&
  cost.counterWcu <= COUNTER_TARGETS.writerCounterWcu;

/** One counted record as the projection met it: its class, its stream time, the day rows it adds to. */
export interface CountedRecord {
  fact: string;
  /** When it entered the stream (epoch ms). */
  at: number;
  rows: readonly string[];
}

/** One transaction of the projection: the facts it applied and the sizes (bytes) of the items it wrote. */
export interface ProjectionTransaction {
  facts: readonly string[];
  itemBytes: readonly number[];
}

/**
 * The batches a stream mapping forms from one shard's records: a batch closes when it holds `batchSize` records or
 * when `windowMs` has passed since its first record arrived (the batching window), whichever comes first.
 */
export function batchesOf<T extends { at: number }>(records: readonly T[], batchSize: number, windowMs: number): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  for (const record of [...records].sort((a, b) => a.at - b.at)) {
    if (current.length > 0 && (current.length >= batchSize || record.at - current[0]!.at >= windowMs)) {
      batches.push(current);
      current = [];
    }
    current.push(record);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * The projection's transactions for one batch, as it writes them: the batch's rows summed, cut into transactions of at
 * most `maxRows` rows at record boundaries, each with the position item. `rowBytes` sizes a row by its key.
 */
export function transactionsOf(
  batch: readonly CountedRecord[],
  rowBytes: (row: string) => number,
  positionBytes: number,
  maxRows = 99,
): ProjectionTransaction[] {
  const out: ProjectionTransaction[] = [];
  let rows = new Set<string>();
  let facts: string[] = [];
  const close = () => {
    if (facts.length > 0) out.push({ facts, itemBytes: [positionBytes, ...[...rows].map(rowBytes)] });
    rows = new Set();
    facts = [];
  };
  for (const record of batch) {
    const added = record.rows.filter((r) => !rows.has(r));
    if (rows.size + new Set(added).size > maxRows) close();
    for (const r of record.rows) rows.add(r);
    facts.push(record.fact);
  }
  close();
  return out;
}

/** The projection's write units per fact: overall, and per fact class with each transaction's units split evenly over its facts. */
export interface ProjectionCost {
  facts: number;
  transactions: number;
  items: number;
  wcu: number;
  wcuPerFact: number;
  byFact: Record<string, { facts: number; wcu: number; wcuPerFact: number }>;
  meets: boolean;
}

/** Write units of transactions by DynamoDB's rule (2 per started KB of each item, a transactional write). */
export function projectionCost(transactions: readonly ProjectionTransaction[]): ProjectionCost {
  const byFact: ProjectionCost['byFact'] = {};
  let facts = 0;
  let items = 0;
  let wcu = 0;
  for (const t of transactions) {
    const units = t.itemBytes.reduce((sum, bytes) => sum + writeUnits(bytes, true), 0);
    wcu += units;
    items += t.itemBytes.length;
    facts += t.facts.length;
    for (const fact of t.facts) {
      const into = byFact[fact] ?? { facts: 0, wcu: 0, wcuPerFact: 0 };
      byFact[fact] = into;
      into.facts += 1;
      into.wcu += units / t.facts.length;
    }
  }
  for (const f of Object.values(byFact)) {
    f.wcu = round(f.wcu);
    f.wcuPerFact = round(f.wcu / f.facts);
  }
  const wcuPerFact = facts === 0 ? NaN : round(wcu / facts);
  return {
    facts,
    transactions: transactions.length,
    items,
    wcu,
    wcuPerFact,
    byFact,
    meets: wcuPerFact <= COUNTER_TARGETS.projectionWcuPerFact,
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
