import * as dynamodb from '@aws-sdk/client-dynamodb';
import {
  type AttributeValue,
  BatchWriteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type CpuSample, type CpuSpent, cpuBetween } from './cpu-usage.js';

/**
 * The engine's own floor: every DynamoDB request the engine sent while it turned events into e-mails, replayed straight
 * at DynamoDB Local — no HTTP, no queue, no handler code — against a copy of the table in a DynamoDB Local of its own
 * (same jar, keys, indexes and stream), each replay starting from the items the requests touch as they were before the
 * run, conditions and all. The replay keeps each message's requests in their order (a request
 * waits for those of its message that had ended before it started) and runs messages side by side. The engine can
 * be no faster than that on this machine, so `floor ms / engine ms` says how much of the emulator's speed it reaches.
 */

/** One DynamoDB call as the engine sent it: the command and its wire-level input (attribute values marshalled). */
export interface CapturedCall {
  command: string;
  input: Record<string, unknown>;
  /** The message delivery (or other unit of work) that sent it; undefined: a unit of its own (an API request). */
  group: object | undefined;
  startedAt: number;
  endedAt: number;
}

/** Records the calls of a document client between `start` and `stop` (one per call, before the SDK's retries). */
export class RequestCapture {
  readonly calls: CapturedCall[] = [];
  private recording = false;

  constructor(db: DynamoDBDocumentClient, groupOf: () => object | undefined) {
    // The build step comes after the document client's marshalling: the input is what goes on the wire.
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (!this.recording) return next(args);
        const call: CapturedCall = {
          command: String(context.commandName ?? 'unknown'),
          // The document client marshals into new objects the SDK does not change afterwards: kept, not copied, so
          // capturing costs the measured run next to nothing.
          input: args.input as Record<string, unknown>,
          group: groupOf(),
          startedAt: performance.now(),
          endedAt: Number.NaN,
        };
        try {
          return await next(args);
        } finally {
          call.endedAt = performance.now();
          if (this.recording) this.calls.push(call);
        }
      },
      { step: 'build', name: 'benchRequestCapture' },
    );
  }

  start(): void {
    this.calls.length = 0;
    this.recording = true;
  }

  stop(): CapturedCall[] {
    this.recording = false;
    return [...this.calls];
  }
}

export interface FloorRun {
  /** Units of work replayed at once. */
  concurrency: number;
  ms: number;
  /**
   * Replayed requests DynamoDB refused: a condition that held in the run but not in the replay's interleaving of the
   * units (a claim replayed before the event that created its execution), a conflict.
   */
  failed: number;
  /** CPU seconds this process (sending the requests) and the replay's JVM spent on it, where readable. */
  cpu?: CpuSpent;
}

export interface EngineFloor {
  requests: number;
  /** Units of work (message deliveries, API requests) the requests belong to. */
  units: number;
  /** Items the replay's table starts from (those the requests touch that existed before the run). */
  seededItems: number;
  runs: FloorRun[];
  /** The fastest run: the floor. */
  best: FloorRun;
}

export interface FloorOptions {
  region: string;
  tableName: string;
  /**
   * A DynamoDB Local of the replay's own, holding an empty table of the same name, keys, indexes and stream (started
   * by local/dynamodb.ts as the runtime's is). Not a second table in the engine's: DynamoDB Local looks up a table's
   * stream on every request, and for a table created beside one with a long stream that costs ~5× (measured: a
   * GetItem 10.7 ms against 1.8 ms without the stream, and 2 ms on the long-streamed table itself), so a copy there
   * measured a floor slower than the engine it bounds.
   */
  replayEndpoint: string;
  /** Units replayed at once; each is tried and the fastest kept (default 4, 16, 64). */
  concurrencies?: readonly number[];
  /** The engine table's items as they were before the run (snapshotTable, taken before the clock started). */
  before: readonly Item[];
  /** This process's and the replay's JVM's CPU seconds now: each replay says what it burnt. */
  cpu?: () => CpuSample;
}

type Item = Record<string, AttributeValue>;
type Input = Record<string, unknown>;
type CommandClass = new (input: never) => Parameters<DynamoDBClient['send']>[0];

/**
 * The items of `table` now, every page of a Scan: the state the floor's replays start from, taken before the measured
 * run (outside its clock).
 */
export async function snapshotTable(endpoint: string, region: string, table: string): Promise<Item[]> {
  const client = new DynamoDBClient({
    region,
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  } finally {
    client.destroy();
  }
}

/**
 * Replays `calls` as they were sent (conditions kept) against the replay's own table, once as a warm-up (its JVM
 * starts cold, the engine's had warmed up) and once per concurrency, each from the items as they were before the run.
 */
export async function measureEngineFloor(calls: readonly CapturedCall[], options: FloorOptions): Promise<EngineFloor> {
  const client = new DynamoDBClient({
    region: options.region,
    endpoint: options.replayEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    // As the engine's client (shared/adapters/dynamo/document-client.ts): a conflict is retried the same way.
    maxAttempts: 5,
  });
  try {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: options.tableName }));
    if (!table?.KeySchema) throw new Error(`${options.tableName} has no key schema`);
    const keyNames = table.KeySchema.map((k) => k.AttributeName!);
    const keyText = (item: Item) => JSON.stringify(keyNames.map((name) => item[name]));
    const touched = touchedKeys(calls, options.tableName, keyNames);
    const touchedText = new Set(touched.map(keyText));
    const before = options.before.filter((item) => touchedText.has(keyText(item)));
    // Each replay starts from the run's starting state, so every condition meets what it met in the run; what the
    // replay's own interleaving makes fail is counted, not retried.
    const reset = async () => {
      const started = performance.now();
      await batchWrite(
        client,
        options.tableName,
        touched.map((Key) => ({ DeleteRequest: { Key } })),
      );
      await batchWrite(
        client,
        options.tableName,
        before.map((Item) => ({ PutRequest: { Item } })),
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `  floor: the ${touched.length} items the requests touch reset to their state before the run in ${seconds} s`,
      );
    };
    const units = unitsOf(calls);
    await reset();
    const warmUp = await replay(client, units, WARM_UP_CONCURRENCY);
    console.log(`  floor: warm-up replay at ${WARM_UP_CONCURRENCY} in flight took ${(warmUp.ms / 1000).toFixed(1)} s`);
    if (touched[0]) {
      // How busy the emulator is before the clock starts: a replay sharing it with other work says so here.
      const key = touched[0];
      const started = performance.now();
      for (let i = 0; i < 100; i += 1)
        await client.send(new GetItemCommand({ TableName: options.tableName, Key: key }));
      console.log(`  floor: one GetItem at a time takes ${((performance.now() - started) / 100).toFixed(2)} ms`);
    }
    const runs: FloorRun[] = [];
    for (const concurrency of options.concurrencies ?? [4, 16, 64]) {
      await reset();
      const cpuStarted = options.cpu?.();
      const run = await replay(client, units, concurrency);
      const cpuEnded = options.cpu?.();
      const cpu = cpuStarted && cpuEnded ? cpuBetween(cpuStarted, cpuEnded) : undefined;
      runs.push(cpu ? { ...run, cpu } : run);
    }
    const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    return { requests: calls.length, units: units.length, seededItems: before.length, runs, best };
  } finally {
    client.destroy();
  }
}

/** Writes `requests` in batches of 25, again until none is left unprocessed (outside any clock). */
async function batchWrite(
  client: DynamoDBClient,
  table: string,
  requests: readonly ({ DeleteRequest: { Key: Item } } | { PutRequest: { Item: Item } })[],
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let at = next; at < requests.length; at = next) {
        next += 25;
        let batch = requests.slice(at, at + 25);
        while (batch.length > 0) {
          const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: batch } }));
          batch = (out.UnprocessedItems?.[table] ?? []) as typeof batch;
        }
      }
    }),
  );
}

const WARM_UP_CONCURRENCY = 16;

/** The calls grouped by unit of work, each unit's in the order they started, the units in the order they began. */
function unitsOf(calls: readonly CapturedCall[]): CapturedCall[][] {
  const byGroup = new Map<object, CapturedCall[]>();
  const units: CapturedCall[][] = [];
  for (const call of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    if (!call.group) {
      units.push([call]);
      continue;
    }
    let unit = byGroup.get(call.group);
    if (!unit) {
      unit = [];
      byGroup.set(call.group, unit);
      units.push(unit);
    }
    unit.push(call);
  }
  return units;
}

/** `concurrency` workers take the units in turn; within a unit a call waits for the calls that ended before it began. */
async function replay(
  client: DynamoDBClient,
  units: readonly CapturedCall[][],
  concurrency: number,
): Promise<FloorRun> {
  let next = 0;
  let failed = 0;
  const send = async (call: CapturedCall) => {
    const Command = (dynamodb as unknown as Record<string, CommandClass>)[call.command];
    if (!Command) throw new Error(`no ${call.command} in @aws-sdk/client-dynamodb`);
    try {
      await client.send(new Command(call.input as never));
    } catch {
      failed += 1;
    }
  };
  const runUnit = async (unit: readonly CapturedCall[]) => {
    const done = new Map<CapturedCall, Promise<void>>();
    for (const call of unit) {
      const before = unit.filter((other) => other !== call && done.has(other) && other.endedAt <= call.startedAt);
      done.set(
        call,
        Promise.all(before.map((other) => done.get(other))).then(() => send(call)),
      );
    }
    await Promise.all(done.values());
  };
  const started = performance.now();
  let done = 0;
  // A replay is minutes at worst: say where it is, so a slow one shows which concurrency and how far.
  const progress = setInterval(() => {
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(
      `  floor at ${concurrency} in flight: ${done} of ${units.length} units after ${seconds} s, ${failed} refused`,
    );
  }, 15_000);
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < units.length; i = next++) {
          await runUnit(units[i]!);
          done += 1;
        }
      }),
    );
  } finally {
    clearInterval(progress);
  }
  return { concurrency, ms: performance.now() - started, failed };
}

/** The distinct item keys the calls read or write in `table` (a Query's items are not copied). */
export function touchedKeys(calls: readonly CapturedCall[], table: string, keyNames: readonly string[]): Item[] {
  const keys = new Map<string, Item>();
  const add = (tableName: unknown, key: Item | undefined) => {
    if (tableName !== table || !key) return;
    const only = Object.fromEntries(keyNames.map((name) => [name, key[name]!]));
    if (keyNames.some((name) => only[name] === undefined)) return;
    keys.set(JSON.stringify(only), only);
  };
  const addAction = (action: Input | undefined) => {
    if (!action) return;
    add(action['TableName'], (action['Key'] ?? action['Item']) as Item | undefined);
  };
  for (const { command, input } of calls) {
    if (command === 'BatchGetItemCommand' || command === 'BatchWriteItemCommand') {
      for (const [tableName, request] of Object.entries(input['RequestItems'] as Record<string, unknown>)) {
        if (Array.isArray(request)) {
          for (const r of request as { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[])
            add(tableName, r.PutRequest?.Item ?? r.DeleteRequest?.Key);
        } else for (const key of (request as { Keys: Item[] }).Keys) add(tableName, key);
      }
    } else if (command === 'TransactWriteItemsCommand' || command === 'TransactGetItemsCommand') {
      for (const entry of input['TransactItems'] as Record<string, Input>[])
        for (const action of Object.values(entry)) addAction(action);
    } else addAction(input);
  }
  return [...keys.values()];
}
