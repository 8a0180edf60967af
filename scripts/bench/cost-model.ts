/**
 * The arithmetic of the cost bench (scripts/bench/cost.ts), pure and unit-tested: DynamoDB's published capacity rules
 * (an item's write units, its index writes, read units), Lambda's GB-seconds, and the table of what 1,000 e-mails of
 * one kind cost. Item sizes follow stats-cost.ts (`itemBytes`, DynamoDB's size rules).
 */
import { itemBytes, writeUnits } from './stats-cost.js';
import { costOf, PRICES, type Price, type PriceName } from './prices.js';

type Item = Record<string, unknown>;

/** A global secondary index as the table declares it (shared/adapters/dynamo/table-definition.ts, TABLE_KEYS). */
export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey?: string;
  projection: 'ALL' | 'KEYS_ONLY';
}

/** The table's own key attributes (every index entry carries them). */
export interface TableKey {
  partitionKey: string;
  sortKey?: string;
}

/** Bytes DynamoDB adds to every index entry ("100 bytes of overhead per index item"). */
export const INDEX_ENTRY_OVERHEAD_BYTES = 100;

/** Whether the item is in the (sparse) index: it carries the index's key attributes. */
export const inIndex = (item: Item | undefined, index: IndexDefinition): item is Item =>
  item !== undefined &&
  item[index.partitionKey] !== undefined &&
  (index.sortKey === undefined || item[index.sortKey] !== undefined);

/** What of the item the index holds: every attribute (ALL), or the table's and the index's keys (KEYS_ONLY). */
export function projected(item: Item, index: IndexDefinition, table: TableKey): Item {
  if (index.projection === 'ALL') return item;
  const names = [table.partitionKey, table.sortKey, index.partitionKey, index.sortKey].filter(
    (n): n is string => n !== undefined,
  );
  return Object.fromEntries(names.filter((n) => item[n] !== undefined).map((n) => [n, item[n]]));
}

/** An index entry's size: its projected attributes plus DynamoDB's per-entry overhead. */
export const indexEntryBytes = (item: Item, index: IndexDefinition, table: TableKey): number =>
  itemBytes(projected(item, index, table)) + INDEX_ENTRY_OVERHEAD_BYTES;

/**
 * Write units one table write costs in one index, by DynamoDB's rules (GSI.html "Provisioned throughput considerations
 * for global secondary indexes"): an item entering the index is one write of its new entry; one leaving it, one delete
 * of its old entry; one whose index key changes, both (delete and put); one staying with a changed projection, one
 * write of the new entry; anything else, none. 1 unit per started KB of the entry. Index writes are not doubled for a
 * transaction: the table's write is transactional, the index's propagation is not.
 */
export function indexWriteUnits(
  before: Item | undefined,
  after: Item | undefined,
  index: IndexDefinition,
  table: TableKey,
): number {
  const was = inIndex(before, index);
  const is = inIndex(after, index);
  const units = (item: Item) => writeUnits(indexEntryBytes(item, index, table), false);
  if (!was && !is) return 0;
  if (!was) return units(after!);
  if (!is) return units(before);
  const keyChanged =
    !sameValue(before[index.partitionKey], after![index.partitionKey]) ||
    (index.sortKey !== undefined && !sameValue(before[index.sortKey], after![index.sortKey]));
  if (keyChanged) return units(before) + units(after!);
  const entryChanged = !sameValue(projected(before, index, table), projected(after!, index, table));
  return entryChanged ? units(after!) : 0;
}

/**
 * One item a write request named, and what it cost by the rules: the table's units (the larger image, per started KB,
 * doubled in a transaction; 1 at least, which a write that changed nothing — a failed condition — still pays) and
 * each index's.
 */
export function itemWriteCost(
  before: Item | undefined,
  after: Item | undefined,
  transactional: boolean,
  indexes: readonly IndexDefinition[],
  table: TableKey,
): { table: number; indexes: Record<string, number> } {
  const bytes = Math.max(before ? itemBytes(before) : 0, after ? itemBytes(after) : 0);
  return {
    table: writeUnits(bytes, transactional),
    indexes: Object.fromEntries(indexes.map((index) => [index.name, indexWriteUnits(before, after, index, table)])),
  };
}

/**
 * Read units of reading `bytes` (one item, or a query's items summed): 1 per started 4 KB strongly consistent, half
 * that eventually consistent, twice it in a transaction.
 */
export function readUnits(bytes: number, consistency: 'eventual' | 'strong' | 'transactional'): number {
  const blocks = Math.max(1, Math.ceil(bytes / 4096));
  return consistency === 'eventual' ? blocks / 2 : consistency === 'transactional' ? blocks * 2 : blocks;
}

/** Lambda's billed GB-seconds for one invocation: its duration rounded up to the millisecond × its memory. */
export const gbSeconds = (durationMs: number, memoryMb: number): number =>
  (Math.ceil(Math.max(durationMs, 1)) / 1000) * (memoryMb / 1024);

/** What one kind of e-mail was measured to use, in total over `emails` e-mails. */
export interface MeasuredUse {
  emails: number;
  dynamoWriteTable: number;
  dynamoWriteIndexes: number;
  dynamoRead: number;
  /** Stream records Lambda's pollers read (GetRecords by a Lambda trigger: free). */
  streamRecords: number;
  lambdaRequests: number;
  lambdaGbSeconds: number;
  sqsRequests: number;
  schedulerInvocations: number;
  apiRequests: number;
  snsPublishes: number;
  sesEmails: number;
}

export interface CostRow {
  resource: string;
  /** Per 1,000 e-mails. */
  quantity: number;
  price: Price;
  /** Dollars per 1,000 e-mails. */
  cost: number;
}

export interface CostTable {
  rows: CostRow[];
  /** Everything but SES itself, per 1,000 e-mails. */
  overhead: number;
  ses: number;
  total: number;
  /** overhead ÷ SES's own price. */
  ratio: number;
}

const RESOURCES: [keyof Omit<MeasuredUse, 'emails'>, string, PriceName][] = [
  ['dynamoWriteTable', 'DynamoDB write request units, table', 'dynamoWrite'],
  ['dynamoWriteIndexes', 'DynamoDB write request units, indexes', 'dynamoWrite'],
  ['dynamoRead', 'DynamoDB read request units', 'dynamoRead'],
  ['lambdaRequests', 'Lambda requests', 'lambdaRequest'],
  ['lambdaGbSeconds', 'Lambda GB-seconds (arm64)', 'lambdaArmGbSecond'],
  ['sqsRequests', 'SQS requests (send, receive, delete)', 'sqsRequest'],
  ['schedulerInvocations', 'EventBridge Scheduler invocations', 'schedulerInvocation'],
  ['apiRequests', 'API Gateway HTTP API requests', 'httpApiRequest'],
  ['snsPublishes', 'SNS publishes (SES status events)', 'snsPublish'],
  ['streamRecords', 'DynamoDB Streams records read by Lambda (free)', 'streamRead'],
];

/** The table per 1,000 e-mails: each resource's quantity scaled from the measured run, priced; SES apart. */
export function costTable(use: MeasuredUse): CostTable {
  if (use.emails <= 0) throw new Error('no e-mail was measured');
  const scale = 1000 / use.emails;
  const rows: CostRow[] = RESOURCES.map(([key, resource, price]) => {
    const quantity = use[key] * scale;
    // Lambda's pollers read the stream for free: the row says how much, at no cost.
    const cost = key === 'streamRecords' ? 0 : costOf(quantity, PRICES[price]);
    return { resource, quantity, price: PRICES[price], cost };
  });
  const sesQuantity = use.sesEmails * scale;
  const ses = costOf(sesQuantity, PRICES.sesEmail);
  rows.push({ resource: 'SES e-mails', quantity: sesQuantity, price: PRICES.sesEmail, cost: ses });
  const overhead = rows.filter((r) => r.price !== PRICES.sesEmail).reduce((sum, r) => sum + r.cost, 0);
  return { rows, overhead, ses, total: overhead + ses, ratio: ses > 0 ? overhead / ses : NaN };
}

/** Deep equality of DynamoDB values as the document client gives them (plain values, Sets, arrays, maps). */
function sameValue(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

function stable(value: unknown): string {
  if (value instanceof Set) return `set:${JSON.stringify([...value].map(stable).sort())}`;
  if (value instanceof Uint8Array) return `bin:${Buffer.from(value).toString('base64')}`;
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Item)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}
