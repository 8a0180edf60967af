import { AsyncLocalStorage } from 'node:async_hooks';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { itemBytes } from './stats-cost.js';
import { itemWriteCost, readUnits, type IndexDefinition, type TableKey } from './cost-model.js';

type Item = Record<string, unknown>;

const READS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);

interface Written {
  table: string;
  key: Item;
  transactional: boolean;
  /** A transaction's ConditionCheck: a transactional read of the item, billed as read units. */
  check?: boolean;
}

/** One Lambda function's invocations as measured: how many, their summed billed milliseconds. */
export interface FunctionUse {
  invocations: number;
  /** Each invocation's handler time, rounded up to the millisecond as Lambda bills it, summed. */
  billedMs: number;
  /**
   * The invocations no other timed invocation overlapped, their wall and the process's CPU milliseconds summed: alone,
   * the process's CPU time is the invocation's (the memory sizing's input, memory-sizing.ts).
   */
  solo: { invocations: number; wallMs: number; cpuMs: number };
  /** Every invocation's wall and process CPU milliseconds: with others beside it, an upper bound of its own. */
  all: { invocations: number; wallMs: number; cpuMs: number };
}

/** What the meter saw since its last reset. */
export interface CostTotals {
  requests: number;
  /** Read units as DynamoDB Local reports them (ReturnConsumedCapacity). */
  reportedRead: number;
  /** Write units as DynamoDB Local reports them: not the bill for transactions (see CostMeter). */
  reportedWrite: number;
  /** Table write units by the rule, item by item. */
  tableWrite: number;
  /** Index write units by the rule, per index. */
  indexWrite: Record<string, number>;
  /** Table write units by the written item's `entity` attribute, `(tx)` for those inside a transaction. */
  writeByEntity: Record<string, number>;
  /** Item writes by the same names as `writeByEntity`, and the bytes of the larger image of each, summed. */
  itemWritesByEntity: Record<string, { writes: number; bytes: number }>;
  /** Index write units by `index: entity`. */
  indexWriteByEntity: Record<string, number>;
  /** Read units as reported, by command. */
  readByCommand: Record<string, number>;
  /** A transaction's ConditionChecks, read units by the rule (a transactional read of the item). */
  checkRead: number;
  /** Requests whose write failed (a condition, a cancelled transaction): billed, counted by the rule. */
  failedWrites: number;
  /** GetItems of a whole item: the reported read units against the rule's, to check DynamoDB Local's figures. */
  getItemCheck: { compared: number; agreed: number };
  functions: Record<string, FunctionUse>;
  /**
   * Table write units of the day-counter rows and stream positions (`STATS#…`, `STREAMPOS#…`) by the function that
   * wrote them, with the largest such item's bytes: what the counters cost at the local poller's batches, which the
   * cost bench replaces with the mapping's (cost.ts).
   */
  counterWrites: Record<string, { table: number; maxBytes: number }>;
  /**
   * Transactions of a single item, by its name (as `writeByEntity`): each costs twice what the same write alone
   * would, where the write alone gives the same guarantee.
   */
  singleItemTransactions: Record<string, number>;
}

const emptyTotals = (): CostTotals => ({
  requests: 0,
  reportedRead: 0,
  reportedWrite: 0,
  tableWrite: 0,
  indexWrite: {},
  writeByEntity: {},
  itemWritesByEntity: {},
  indexWriteByEntity: {},
  readByCommand: {},
  checkRead: 0,
  failedWrites: 0,
  getItemCheck: { compared: 0, agreed: 0 },
  functions: {},
  counterWrites: {},
  singleItemTransactions: {},
});

/** One timed invocation: its function, the meter's own time inside it, whether another ran beside it. */
interface Invocation {
  fn: string;
  overheadMs: number;
  overlapped: boolean;
}

/** The day counters' rows and the stream positions of the projections (shared/adapters/dynamo/keys.ts). */
const COUNTER_ITEM = /^(STATS|STREAMPOS)#/;

const add = (into: Record<string, number>, key: string, n: number) => {
  if (n !== 0) into[key] = (into[key] ?? 0) + n;
};

/**
 * The cost bench's meter on the runtime's DynamoDB client:
 * - every request asks for `ReturnConsumedCapacity: INDEXES`; its read units are taken as DynamoDB Local reports them
 *   (a GetItem of a whole item is checked against the rule);
 * - write units by DynamoDB's rules, item by item, because DynamoDB Local's figures for transactions are not the bill
 *   (scripts/bench/capacity-meter.ts: it reports a transaction's Put alone): each item a write names is read before
 *   and after it on `imageDb` (a client of its own, neither counted nor metered) and priced by cost-model.ts —
 *   the larger image, doubled in a transaction, and each index it enters, leaves or changes in. A write that fails
 *   (a condition) is billed too, and is counted the same way.
 * The image reads take time inside the function that made the write: `timed` takes it off that invocation's duration.
 */
export class CostMeter {
  totals: CostTotals = emptyTotals();
  private readonly invocations = new AsyncLocalStorage<Invocation>();
  private readonly running = new Set<Invocation>();
  /**
   * Off: writes are neither read (no image reads inside an invocation, so its CPU time is its own) nor priced; only
   * invocations are timed. The sizing pass runs so.
   */
  pricing = true;

  constructor(
    private readonly imageDb: DynamoDBDocumentClient,
    private readonly indexes: readonly IndexDefinition[],
    private readonly tableKey: TableKey,
  ) {}

  reset(): void {
    this.totals = emptyTotals();
  }

  install(db: DynamoDBDocumentClient): void {
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName ?? '');
        if (!this.pricing || (!READS.has(command) && !WRITES.has(command))) return next(args);
        const input = args.input as Record<string, any>;
        input['ReturnConsumedCapacity'] = 'INDEXES';
        const written = writtenItems(command, input);
        const imagesStarted = performance.now();
        const before = await Promise.all(written.map((w) => this.image(w)));
        let overheadMs = performance.now() - imagesStarted;
        let out: Awaited<ReturnType<typeof next>> | undefined;
        let failure: unknown;
        try {
          out = await next(args);
        } catch (error) {
          failure = error;
        }
        const afterStarted = performance.now();
        const after = await Promise.all(written.map((w) => this.image(w)));
        overheadMs += performance.now() - afterStarted;
        const scope = this.invocations.getStore();
        if (scope) scope.overheadMs += overheadMs;
        this.count(
          command,
          input,
          out?.output as Record<string, any> | undefined,
          written,
          before,
          after,
          failure,
          scope?.fn,
        );
        if (failure !== undefined) throw failure;
        return out!;
      },
      { step: 'initialize', name: 'benchCostMeter', priority: 'high' },
    );
  }

  /**
   * Runs one invocation of `fn` (a Lambda function's handler on a batch or a request) and records its duration, less
   * the time the meter's own image reads took inside it.
   */
  async timed<T>(fn: string, run: () => Promise<T>): Promise<T> {
    const scope: Invocation = { fn, overheadMs: 0, overlapped: this.running.size > 0 };
    for (const other of this.running) other.overlapped = true;
    this.running.add(scope);
    const cpu = process.cpuUsage();
    const started = performance.now();
    try {
      return await this.invocations.run(scope, run);
    } finally {
      const wallMs = performance.now() - started - scope.overheadMs;
      const used = process.cpuUsage(cpu);
      this.running.delete(scope);
      const cpuMs = (used.user + used.system) / 1000;
      this.recordInvocation(fn, wallMs, scope.overlapped ? undefined : cpuMs, cpuMs);
    }
  }

  /** An invocation timed elsewhere (an HTTP request, measured around the call), with its CPU time if it ran alone. */
  recordInvocation(fn: string, ms: number, soloCpuMs?: number, cpuMs?: number): void {
    const use = this.totals.functions[fn] ?? {
      invocations: 0,
      billedMs: 0,
      solo: { invocations: 0, wallMs: 0, cpuMs: 0 },
      all: { invocations: 0, wallMs: 0, cpuMs: 0 },
    };
    use.invocations += 1;
    use.billedMs += Math.ceil(Math.max(ms, 1));
    if (cpuMs !== undefined) {
      use.all.invocations += 1;
      use.all.wallMs += ms;
      use.all.cpuMs += cpuMs;
    }
    if (soloCpuMs !== undefined) {
      use.solo.invocations += 1;
      use.solo.wallMs += ms;
      use.solo.cpuMs += soloCpuMs;
    }
    this.totals.functions[fn] = use;
  }

  private count(
    command: string,
    input: Record<string, any>,
    output: Record<string, any> | undefined,
    written: Written[],
    before: (Item | undefined)[],
    after: (Item | undefined)[],
    failure: unknown,
    fn: string | undefined,
  ): void {
    const t = this.totals;
    t.requests += 1;
    if (command === 'TransactWriteItemsCommand' && written.length === 1 && !written[0]!.check) {
      const only = after[0] ?? before[0];
      add(t.singleItemTransactions, String(only?.['entity'] ?? entityOfKey(written[0]!.key)), 1);
    }
    const consumed = output?.['ConsumedCapacity'] as { CapacityUnits?: number } | { CapacityUnits?: number }[];
    const reported = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce(
      (sum, c) => sum + (c.CapacityUnits ?? 0),
      0,
    );
    if (READS.has(command)) {
      t.reportedRead += reported;
      add(t.readByCommand, command.replace(/Command$/, ''), reported);
      if (command === 'GetItemCommand' && output?.['Item'] && !input['ProjectionExpression']) {
        const rule = readUnits(itemBytes(output['Item'] as Item), input['ConsistentRead'] ? 'strong' : 'eventual');
        t.getItemCheck.compared += 1;
        if (Math.abs(rule - reported) < 1e-9) t.getItemCheck.agreed += 1;
      }
      return;
    }
    t.reportedWrite += reported;
    if (failure !== undefined) t.failedWrites += 1;
    written.forEach((w, i) => {
      if (w.check) {
        t.checkRead += readUnits(before[i] ? itemBytes(before[i]) : 0, 'transactional');
        return;
      }
      const cost = itemWriteCost(before[i], after[i], w.transactional, this.indexes, this.tableKey);
      const entity = String((after[i] ?? before[i])?.['entity'] ?? entityOfKey(w.key));
      t.tableWrite += cost.table;
      const name = w.transactional ? `${entity} (tx)` : entity;
      add(t.writeByEntity, name, cost.table);
      const item = t.itemWritesByEntity[name] ?? { writes: 0, bytes: 0 };
      const bytes = Math.max(before[i] ? itemBytes(before[i]) : 0, after[i] ? itemBytes(after[i]) : 0);
      item.writes += 1;
      item.bytes += bytes;
      t.itemWritesByEntity[name] = item;
      if (fn !== undefined && COUNTER_ITEM.test(String(w.key['pk']))) {
        const counters = t.counterWrites[fn] ?? { table: 0, maxBytes: 0 };
        counters.table += cost.table;
        counters.maxBytes = Math.max(counters.maxBytes, bytes);
        t.counterWrites[fn] = counters;
      }
      for (const [index, units] of Object.entries(cost.indexes)) {
        add(t.indexWrite, index, units);
        add(t.indexWriteByEntity, `${index}: ${entity}`, units);
      }
    });
  }

  private async image(w: Written): Promise<Item | undefined> {
    const out = await this.imageDb.send(new GetCommand({ TableName: w.table, Key: w.key, ConsistentRead: true }));
    return out.Item;
  }
}

/** An item without an `entity` attribute, named by its key's prefixes (`CLIENT#…/RATE#…` → `CLIENT/RATE`). */
function entityOfKey(key: Item): string {
  const prefix = (v: unknown) => String(v ?? '').split('#')[0];
  return `${prefix(key['pk'])}/${prefix(key['sk'])}`;
}

/** The items a write request names (document-client input: plain values), with the table's key attributes. */
function writtenItems(command: string, input: Record<string, any>): Written[] {
  const keyOf = (item: Item): Item => ({ pk: item['pk'], sk: item['sk'] });
  switch (command) {
    case 'PutItemCommand':
      return [{ table: input['TableName'], key: keyOf(input['Item']), transactional: false }];
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return [{ table: input['TableName'], key: input['Key'], transactional: false }];
    case 'BatchWriteItemCommand':
      return Object.entries(input['RequestItems'] as Record<string, any[]>).flatMap(([table, requests]) =>
        requests.map((r) => ({
          table,
          key: r.PutRequest ? keyOf(r.PutRequest.Item) : r.DeleteRequest.Key,
          transactional: false,
        })),
      );
    case 'TransactWriteItemsCommand':
      return (input['TransactItems'] as any[]).flatMap((item) => {
        if (item.Put) return [{ table: item.Put.TableName, key: keyOf(item.Put.Item), transactional: true }];
        if (item.ConditionCheck)
          return [
            { table: item.ConditionCheck.TableName, key: item.ConditionCheck.Key, transactional: true, check: true },
          ];
        const op = item.Update ?? item.Delete;
        return op ? [{ table: op.TableName, key: op.Key, transactional: true }] : [];
      });
    default:
      return [];
  }
}
