import * as dynamodb from '@aws-sdk/client-dynamodb';
import {
  type AttributeValue,
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The engine's own floor: every DynamoDB request the engine sent while it turned events into e-mails, replayed straight
 * at DynamoDB Local — no HTTP, no queue, no handler code — against a copy of the table in a DynamoDB Local of its own
 * (same jar, keys, indexes and stream, holding the items the requests touch). The replay keeps each message's requests in their order (a request
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
  /** Replayed requests DynamoDB refused (a condition-free update of an attribute the copy lacks, a conflict). */
  failed: number;
}

export interface EngineFloor {
  requests: number;
  /** Units of work (message deliveries, API requests) the requests belong to. */
  units: number;
  /** Items copied into the replay's table before the clock starts. */
  seededItems: number;
  runs: FloorRun[];
  /** The fastest run: the floor. */
  best: FloorRun;
}

export interface FloorOptions {
  /** The DynamoDB Local the engine ran against: the items the requests name are read from its table. */
  endpoint: string;
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
}

type Item = Record<string, AttributeValue>;
type Input = Record<string, unknown>;
type CommandClass = new (input: never) => Parameters<DynamoDBClient['send']>[0];

/**
 * Replays `calls` against the replay's own table, once as a warm-up (its JVM starts cold, the engine's had warmed
 * up) and once per concurrency.
 */
export async function measureEngineFloor(calls: readonly CapturedCall[], options: FloorOptions): Promise<EngineFloor> {
  const clientOf = (endpoint: string) =>
    new DynamoDBClient({
      region: options.region,
      endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      // As the engine's client (shared/adapters/dynamo/document-client.ts): a conflict is retried the same way.
      maxAttempts: 5,
    });
  const source = clientOf(options.endpoint);
  const client = clientOf(options.replayEndpoint);
  try {
    const { Table: table } = await source.send(new DescribeTableCommand({ TableName: options.tableName }));
    if (!table?.KeySchema) throw new Error(`${options.tableName} has no key schema`);
    const keyNames = table.KeySchema.map((k) => k.AttributeName!);
    const replayed = calls.map((call) => ({
      ...call,
      input: replayable(call.command, call.input),
    }));
    const touched = touchedKeys(calls, options.tableName, keyNames);
    // Each phase says when it starts and how long it took: a replay that seemed stuck was still seeding.
    let phaseStarted = performance.now();
    console.log(`  floor: copying the ${touched.length} items the requests name into the replay's DynamoDB Local…`);
    const seededItems = await seed(source, client, options.tableName, touched);
    console.log(`  floor: ${seededItems} items copied in ${((performance.now() - phaseStarted) / 1000).toFixed(1)} s`);
    const units = unitsOf(replayed);
    const warmUp = await replay(client, units, WARM_UP_CONCURRENCY);
    console.log(`  floor: warm-up replay at ${WARM_UP_CONCURRENCY} in flight took ${(warmUp.ms / 1000).toFixed(1)} s`);
    if (touched[0]) {
      // How busy the emulator is before the clock starts: a replay sharing it with other work says so here.
      const key = touched[0];
      phaseStarted = performance.now();
      for (let i = 0; i < 100; i += 1)
        await client.send(new GetItemCommand({ TableName: options.tableName, Key: key }));
      console.log(`  floor: one GetItem at a time takes ${((performance.now() - phaseStarted) / 100).toFixed(2)} ms`);
    }
    const runs: FloorRun[] = [];
    for (const concurrency of options.concurrencies ?? [4, 16, 64]) runs.push(await replay(client, units, concurrency));
    const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    return { requests: calls.length, units: units.length, seededItems, runs, best };
  } finally {
    source.destroy();
    client.destroy();
  }
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

/** Copies the items the calls name (their state now) from the engine's table into the replay's, outside the clock. */
async function seed(
  source: DynamoDBClient,
  target: DynamoDBClient,
  table: string,
  keys: readonly Item[],
): Promise<number> {
  let copied = 0;
  let next = 0;
  const chunk = async (first: number) => {
    let wanted: Item[] = keys.slice(first, first + 100);
    const items: Item[] = [];
    while (wanted.length > 0) {
      const got = await source.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: wanted } } }));
      items.push(...(got.Responses?.[table] ?? []));
      wanted = got.UnprocessedKeys?.[table]?.Keys ?? [];
    }
    for (let at = 0; at < items.length; at += 25) {
      let puts = items.slice(at, at + 25).map((Item) => ({ PutRequest: { Item } }));
      while (puts.length > 0) {
        const put = await target.send(new BatchWriteItemCommand({ RequestItems: { [table]: puts } }));
        puts = (put.UnprocessedItems?.[table] ?? []).map((r) => ({ PutRequest: { Item: r.PutRequest!.Item! } }));
      }
    }
    copied += items.length;
  };
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let first = next; first < keys.length; first = next) {
        next += 100;
        await chunk(first);
      }
    }),
  );
  return copied;
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

/**
 * The call as the replay sends it: its conditions dropped (the replay's table holds the items' state after the run,
 * so a condition that held then may not now; evaluating one costs the emulator little next to the write). A
 * transaction's ConditionCheck stays as a check that always holds, so the transaction keeps its items. Its table
 * names stay: the replay's table has the engine's table's name, in a DynamoDB Local of its own.
 */
export function replayable(command: string, input: Input): Input {
  if (command === 'BatchGetItemCommand' || command === 'BatchWriteItemCommand') return input;
  if (command === 'TransactWriteItemsCommand' || command === 'TransactGetItemsCommand') {
    return {
      ...input,
      TransactItems: (input['TransactItems'] as Record<string, Input>[]).map((entry) =>
        Object.fromEntries(
          Object.entries(entry).map(([kind, action]) => {
            if (kind === 'ConditionCheck') {
              return [
                kind,
                {
                  TableName: action['TableName'],
                  Key: action['Key'],
                  ConditionExpression: 'attribute_not_exists(#floorNever)',
                  ExpressionAttributeNames: { '#floorNever': 'floor_never_written' },
                },
              ];
            }
            return [kind, withoutCondition(action)];
          }),
        ),
      ),
    };
  }
  return withoutCondition(input);
}

const EXPRESSIONS = ['UpdateExpression', 'ProjectionExpression', 'KeyConditionExpression', 'FilterExpression'];

/** The action without its condition, and without the names and values only the condition used. */
export function withoutCondition(action: Input): Input {
  const {
    ConditionExpression: _condition,
    Expected: _expected,
    ConditionalOperator: _operator,
    ReturnValuesOnConditionCheckFailure: _returned,
    ...rest
  } = action;
  const used = EXPRESSIONS.map((name) => rest[name])
    .filter((e): e is string => typeof e === 'string')
    .join(' ');
  const prune = (field: 'ExpressionAttributeNames' | 'ExpressionAttributeValues') => {
    const map = rest[field] as Record<string, unknown> | undefined;
    if (!map) return;
    const kept = Object.entries(map).filter(([placeholder]) =>
      new RegExp(`${placeholder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`).test(used),
    );
    if (kept.length > 0) rest[field] = Object.fromEntries(kept);
    else delete rest[field];
  };
  prune('ExpressionAttributeNames');
  prune('ExpressionAttributeValues');
  return rest;
}
