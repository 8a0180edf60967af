import { randomUUID } from 'node:crypto';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { legacyPrefixesOf } from '../../shared/adapters/dynamo/keys.js';
import {
  STREAM_FUNCTION_DEFAULTS,
  streamFunctions as allStreamFunctions,
  type StreamFunctionDefinition,
} from '../../functions/streams.js';
import type { StreamWindowEvent, StreamWindowResponse } from '../../shared/stream-event.js';
import { createHandlerLoader } from '../handler-loader.js';
import { createLambdaContext } from '../lambda-context.js';

/**
 * A stream function's handler: a windowed one gets a StreamWindowEvent and must answer a StreamWindowResponse; what
 * others answer is not read (their mappings do not report partial failures).
 */
export type StreamHandler = (event: DynamoDBStreamEvent | StreamWindowEvent, context: Context) => Promise<unknown>;

/** Called with the records a function took (one successful hand-over) and when, in epoch milliseconds. */
export type StreamAppliedListener = (records: DynamoDBRecord[], at: number) => void;

export interface StreamPollerOptions {
  endpoint: string;
  region: string;
  tableName: string;
  streamFunctions?: readonly StreamFunctionDefinition[];
  /** Pause between polls of a function's shards when they had nothing new. Default 100 ms. */
  idleMs?: number;
  /**
   * A batch its function failed on is handed over again: bisected down to single records (a windowed function's batch
   * whole), and what still fails after this many hand-overs is logged and skipped. Default 10.
   */
  maxAttempts?: number;
  /** Pause before the next hand-over after `failures` failures in a row. Default 50 ms doubling, at most 2 s. */
  retryDelayMs?: (failures: number) => number;
  /**
   * Where a windowed function starts reading at start(): every retained change (default, so a restart counts what
   * changed while the runtime was down) or only new ones (tests that share a table with earlier changes).
   */
  windowedStart?: 'TRIM_HORIZON' | 'LATEST';
  /** Where a function's handler comes from. Default: the `handler` export of functions/stream/<handler>.ts. */
  loadHandler?: (handler: string) => Promise<StreamHandler>;
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * One function's reading of the stream, as each event source mapping reads on its own: its own iterator per shard,
 * moved on once this function took the records (or gave up on them), whatever the other functions do.
 */
interface Reader {
  fn: StreamFunctionDefinition;
  iterators: Map<string, string>;
  closed: Set<string>;
  /** A shard closed in the last pass: its children are looked for at the next. */
  rediscover: boolean;
}

/** A settled() call: resolved once each reader in `pending` finished a pass, begun after the call, that found nothing. */
interface SettleWaiter {
  pending: Set<Reader>;
  resolve: () => void;
}

type Invocation = { ok: true } | { ok: false; error: unknown };

/** Runs one invocation of a stream function (`invoke`), e.g. inside a metering scope of the caller's. */
export type StreamInvocationWrapper = (handler: string, invoke: () => Promise<unknown>) => Promise<unknown>;

/**
 * The local side of functions/streams.ts: reads DynamoDB Local's stream of the table, as Lambda's event source
 * mappings read DynamoDB Streams, and hands each function the records its `entities` filter lets through, in
 * stream order, `batchSize` at a time. Each function reads with its own iterators, so one that keeps failing holds
 * no other. A batch a function throws on is bisected and handed over again (a windowed function's whole), as on AWS;
 * AWS retries a record until it is a day old, then sends its position to the on-failure queue, here `maxAttempts`
 * hand-overs end in an error line. Shards open at start are read from their latest record (a restart does not
 * replay old changes); shards that open later from their first.
 */
export class LocalStreamPoller {
  private readonly streams: DynamoDBStreamsClient;
  private readonly table: DynamoDBClient;
  private readonly functions: readonly StreamFunctionDefinition[];
  private readonly load: (handler: string) => Promise<StreamHandler>;
  private readonly readers: readonly Reader[];
  private readonly listeners = new Map<string, Set<StreamAppliedListener>>();
  /** What a windowed function answered as `state`, by function and shard, with the start of its window. */
  private readonly windowStates = new Map<string, { start: number; state: Record<string, string> }>();
  private streamArn: string | undefined;
  private stopped = false;
  private readonly stopping: Promise<void>;
  private signalStop: () => void = () => {};
  private loop: Promise<void> | undefined;
  private delivering = 0;
  private waiters: SettleWaiter[] = [];
  private readonly requestCounts: Record<string, number> = {};
  private wrapper: StreamInvocationWrapper = (_handler, invoke) => invoke();

  constructor(private readonly options: StreamPollerOptions) {
    const client = {
      endpoint: options.endpoint,
      region: options.region,
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 3,
    };
    this.streams = new DynamoDBStreamsClient(client);
    // The poller's own reads of the stream, counted: they load the emulator beside the functions' requests.
    this.streams.middlewareStack.add(
      (next, context) => (args) => {
        const command = context.commandName ?? 'unknown';
        this.requestCounts[command] = (this.requestCounts[command] ?? 0) + 1;
        return next(args);
      },
      { step: 'initialize', name: 'countStreamRequests' },
    );
    this.table = new DynamoDBClient(client);
    this.functions = options.streamFunctions ?? allStreamFunctions;
    this.load = options.loadHandler ?? createHandlerLoader<StreamHandler>('stream');
    this.readers = this.functions.map((fn) => ({ fn, iterators: new Map(), closed: new Set(), rediscover: false }));
    this.stopping = new Promise((resolve) => (this.signalStop = resolve));
  }

  /**
   * Finds the table's stream and positions every function at each open shard's latest record (a windowed one at every
   * shard's first retained record); then polls until stop().
   */
  async start(): Promise<void> {
    if (this.functions.length === 0) return;
    const table = await this.table.send(new DescribeTableCommand({ TableName: this.options.tableName }));
    this.streamArn = table.Table?.LatestStreamArn;
    if (!this.streamArn)
      throw new Error(`table ${this.options.tableName} has no stream (local/dynamodb.ts enables one)`);
    // A windowed function keeps its own position per shard (the day counters), so it can take every retained change
    // again after a restart and count only what it had not: a change written while the runtime was down (or killed
    // halfway through a batch) is counted at the next start. Others start at the latest change, as before.
    await Promise.all(
      this.readers.map((reader) =>
        this.discoverShards(
          reader,
          reader.fn.tumblingWindowSeconds ? (this.options.windowedStart ?? 'TRIM_HORIZON') : 'LATEST',
        ),
      ),
    );
    this.loop = Promise.all(this.readers.map((reader) => this.run(reader))).then(() => undefined);
  }

  /**
   * Resolves once every function has taken (or given up on) every record written before the call: each function's
   * reader finished a pass begun after the call that found nothing new (tests, benchmarks).
   */
  settled(): Promise<void> {
    if (!this.loop || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ pending: new Set(this.readers), resolve }));
  }

  /**
   * Calls `listener` after the function `handler` took a batch successfully, with its records and the time; e.g. the
   * lag from a record's ApproximateCreationDateTime to its projection. Returns the call that removes it.
   */
  onApplied(handler: string, listener: StreamAppliedListener): () => void {
    if (!this.functions.some((fn) => fn.handler === handler))
      throw new Error(`no stream function "${handler}" (functions/streams.ts)`);
    const set = this.listeners.get(handler) ?? new Set();
    this.listeners.set(handler, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.signalStop();
    await this.loop;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  /** The poller's own requests to the stream so far (GetRecords, DescribeStream, GetShardIterator), by command. */
  requests(): Record<string, number> {
    return { ...this.requestCounts };
  }

  /** Every invocation from now on runs through `wrapper` (benchmarks attribute the functions' requests with it). */
  wrapInvocations(wrapper: StreamInvocationWrapper): void {
    this.wrapper = wrapper;
  }

  /** A batch is being handed over to some function. */
  get running(): boolean {
    return this.delivering > 0;
  }

  private async run(reader: Reader): Promise<void> {
    let passes = 0;
    while (!this.stopped) {
      const watching = [...this.waiters];
      let found = 0;
      let failed = false;
      try {
        // New shards (DynamoDB Local rolls them over) are looked for every 50 passes, and after one closed.
        if (passes % 50 === 0 || reader.rediscover || reader.iterators.size === 0) {
          reader.rediscover = false;
          await this.discoverShards(reader, 'TRIM_HORIZON');
        }
        for (const [shardId, iterator] of [...reader.iterators]) {
          if (this.stopped) break;
          found += await this.pollShard(reader, shardId, iterator);
        }
      } catch (error) {
        failed = true;
        if (!this.stopped) console.error(`[streams] polling for ${reader.fn.handler} failed; trying again`, error);
      }
      passes += 1;
      if (found === 0 && !failed) this.passedEmpty(reader, watching);
      if (found === 0 || failed) await this.pause(this.options.idleMs ?? 100);
    }
  }

  private passedEmpty(reader: Reader, watching: readonly SettleWaiter[]): void {
    for (const waiter of watching) {
      waiter.pending.delete(reader);
      if (waiter.pending.size > 0) continue;
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve();
    }
  }

  private async discoverShards(reader: Reader, position: 'LATEST' | 'TRIM_HORIZON'): Promise<void> {
    let exclusiveStartShardId: string | undefined;
    do {
      const out = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      for (const shard of out.StreamDescription?.Shards ?? []) {
        const id = shard.ShardId!;
        if (reader.iterators.has(id) || reader.closed.has(id)) continue;
        // A shard that ended before this poller knew it: its records predate the start.
        if (position === 'LATEST' && shard.SequenceNumberRange?.EndingSequenceNumber) {
          reader.closed.add(id);
          continue;
        }
        const it = await this.streams.send(
          new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: id, ShardIteratorType: position }),
        );
        if (it.ShardIterator) reader.iterators.set(id, it.ShardIterator);
      }
      exclusiveStartShardId = out.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
  }

  /**
   * Reads what is new in one shard for one function and hands it over; the function's iterator moves on once it took
   * the records or gave up on them. The records wait in memory meanwhile, as a retried batch is the same records.
   */
  private async pollShard(reader: Reader, shardId: string, iterator: string): Promise<number> {
    const out = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
    const records = (out.Records ?? []).map(toLambdaRecord);
    const wanted = records.filter((r) => matches(reader.fn, r));
    if (wanted.length > 0) await this.deliver(reader.fn, wanted, shardId);
    if (out.NextShardIterator) reader.iterators.set(shardId, out.NextShardIterator);
    else {
      reader.iterators.delete(shardId);
      reader.closed.add(shardId);
      reader.rediscover = true;
      this.windowStates.delete(windowKey(reader.fn, shardId));
    }
    return records.length;
  }

  /** Hands one function the records of one shard it wants, `batchSize` at a time, in order. */
  private async deliver(fn: StreamFunctionDefinition, records: DynamoDBRecord[], shardId: string): Promise<void> {
    const size = fn.batchSize ?? STREAM_FUNCTION_DEFAULTS.batchSize;
    this.delivering += 1;
    try {
      for (let i = 0; i < records.length && !this.stopped; i += size) {
        const batch = records.slice(i, i + size);
        if (fn.tumblingWindowSeconds === undefined) await this.deliverBisecting(fn, batch, 0);
        else await this.deliverWindowed(fn, batch, shardId, fn.tumblingWindowSeconds);
      }
    } finally {
      this.delivering -= 1;
    }
  }

  /**
   * Bisect on error, as the mapping does: a batch the function threw on is split in two halves handed over one after
   * the other, down to single records. Splitting spends no attempt, so only a record that fails on its own
   * `maxAttempts` times is skipped, never the records beside it.
   */
  private async deliverBisecting(
    fn: StreamFunctionDefinition,
    batch: DynamoDBRecord[],
    failures: number,
  ): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 10;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.invoke(fn, { Records: batch });
      if (outcome.ok || this.stopped) return;
      failures += 1;
      await this.pause(this.retryDelay(failures));
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        await this.deliverBisecting(fn, batch.slice(0, half), failures);
        await this.deliverBisecting(fn, batch.slice(half), failures);
        return;
      }
      if (attempt >= maxAttempts) {
        console.error(`[${fn.handler}] a stream record failed ${attempt} times on its own; skipped`, outcome.error);
        return;
      }
    }
  }

  /**
   * A windowed function's batch, as the mapping hands it over: the event names the shard and the window containing
   * now, with the state the function last answered in that window; an answer without `state` is a failure. A failed
   * batch is handed over whole again (no bisecting), up to `maxAttempts` times.
   */
  private async deliverWindowed(
    fn: StreamFunctionDefinition,
    batch: DynamoDBRecord[],
    shardId: string,
    windowSeconds: number,
  ): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 10;
    const key = windowKey(fn, shardId);
    for (let attempt = 1; ; attempt += 1) {
      const length = windowSeconds * 1000;
      const start = Math.floor(Date.now() / length) * length;
      const kept = this.windowStates.get(key);
      const event: StreamWindowEvent = {
        Records: batch,
        shardId,
        eventSourceARN: this.streamArn!,
        window: { start: isoSeconds(start), end: isoSeconds(start + length) },
        state: kept?.start === start ? kept.state : {},
        isFinalInvokeForWindow: false,
        isWindowTerminatedEarly: false,
      };
      const outcome = await this.invoke(fn, event, (answer) => {
        const state = (answer as Partial<StreamWindowResponse> | undefined)?.state;
        if (!state || typeof state !== 'object' || Array.isArray(state))
          throw new Error(`${fn.handler} answered a windowed batch without its state`);
        this.windowStates.set(key, { start, state });
      });
      if (outcome.ok || this.stopped) return;
      if (attempt >= maxAttempts) {
        console.error(
          `[${fn.handler}] a stream batch of ${batch.length} records (shard ${shardId}) failed ${attempt} times; skipped`,
          outcome.error,
        );
        return;
      }
      await this.pause(this.retryDelay(attempt));
    }
  }

  /** One invocation; `check` may refuse the answer (a throw), which counts as the invocation failing. */
  private async invoke(
    fn: StreamFunctionDefinition,
    event: DynamoDBStreamEvent | StreamWindowEvent,
    check?: (answer: unknown) => void,
  ): Promise<Invocation> {
    try {
      const handler = await this.load(fn.handler);
      const context = createLambdaContext({
        functionName: fn.handler,
        awsRequestId: randomUUID(),
        timeoutSeconds: fn.timeoutSeconds ?? STREAM_FUNCTION_DEFAULTS.timeoutSeconds,
        region: this.options.region,
      });
      const answer = await this.wrapper(fn.handler, () => handler(event, context));
      check?.(answer);
    } catch (error) {
      return { ok: false, error };
    }
    const at = Date.now();
    for (const listener of this.listeners.get(fn.handler) ?? []) {
      try {
        listener(event.Records, at);
      } catch (error) {
        console.error(`[streams] an onApplied listener of ${fn.handler} threw`, error);
      }
    }
    return { ok: true };
  }

  private retryDelay(failures: number): number {
    return this.options.retryDelayMs?.(failures) ?? Math.min(2_000, 50 * 2 ** failures);
  }

  /** Waits `ms`, or less when the poller stops. */
  private pause(ms: number): Promise<void> {
    return Promise.race([new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.()), this.stopping]);
  }
}

const windowKey = (fn: StreamFunctionDefinition, shardId: string): string => `${fn.handler}\u0000${shardId}`;

/** An instant as the mapping writes a window's bounds: ISO 8601 to the second. */
const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The event source mapping's filter (infra/stream-function.ts), applied here: an item that names its `entity` passes
 * when the function wants that entity; one written before the attribute existed passes on its key prefix; a removal
 * passes on its old image's entity when the function wants that kind's removals.
 */
export const matches = (fn: StreamFunctionDefinition, record: DynamoDBRecord): boolean => {
  const removed = record.eventName === 'REMOVE' ? record.dynamodb?.OldImage?.['entity']?.S : undefined;
  if (removed !== undefined && (fn.removedEntities ?? []).some((e) => e === removed)) return true;
  const entity = record.dynamodb?.NewImage?.['entity']?.S;
  if (entity !== undefined) return (fn.entities as readonly string[]).includes(entity);
  const pk = record.dynamodb?.Keys?.['pk']?.S;
  return pk !== undefined && legacyPrefixesOf(fn.entities).some((prefix) => pk.startsWith(prefix));
};

type WireValue = NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>[string];

/**
 * An image as the wire (and Lambda's event) has it. The SDK's union deserializer turns an empty map `{"M":{}}` into
 * `{}`, which no reader can type; every other value passes through unchanged.
 */
function asWireImage(image: Record<string, unknown>): Record<string, WireValue> {
  const fix = (value: unknown): WireValue => {
    const v = value as Record<string, unknown>;
    if (v && typeof v === 'object' && Object.keys(v).length === 0) return { M: {} };
    if (v['M'] && typeof v['M'] === 'object') return { M: asWireImage(v['M'] as Record<string, unknown>) };
    if (Array.isArray(v['L'])) return { L: (v['L'] as unknown[]).map(fix) };
    return v as WireValue;
  };
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, fix(v)]));
}

/** The SDK's stream record as Lambda's DynamoDB event carries it (the same shape, epoch-second creation time). */
function toLambdaRecord(record: StreamRecord): DynamoDBRecord {
  const d = record.dynamodb;
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    dynamodb: {
      ...(d?.ApproximateCreationDateTime
        ? { ApproximateCreationDateTime: d.ApproximateCreationDateTime.getTime() / 1000 }
        : {}),
      Keys: d?.Keys as never,
      ...(d?.NewImage ? { NewImage: asWireImage(d.NewImage) } : {}),
      ...(d?.OldImage ? { OldImage: asWireImage(d.OldImage) } : {}),
      SequenceNumber: d?.SequenceNumber,
      SizeBytes: d?.SizeBytes,
      StreamViewType: d?.StreamViewType,
    },
  };
}
