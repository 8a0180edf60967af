import { randomUUID } from 'node:crypto';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { ENTITY_PK_PREFIX } from '../../shared/adapters/dynamo/keys.js';
import {
  STREAM_FUNCTION_DEFAULTS,
  streamFunctions as allStreamFunctions,
  type StreamFunctionDefinition,
} from '../../functions/streams.js';
import { createHandlerLoader } from '../handler-loader.js';
import { createLambdaContext } from '../lambda-context.js';

export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

export interface StreamPollerOptions {
  endpoint: string;
  region: string;
  tableName: string;
  streamFunctions?: readonly StreamFunctionDefinition[];
  /** Pause between polls of a shard that had nothing new. Default 100 ms. */
  idleMs?: number;
  /** A batch its function threw on is handed over again this many times, then logged and skipped. Default 10. */
  maxAttempts?: number;
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The local side of functions/streams.ts: reads DynamoDB Local's stream of the table, as Lambda's event source
 * mapping reads DynamoDB Streams, and hands each function the records its `entities` filter lets through, in
 * stream order, `batchSize` at a time. A batch the function throws on is handed over again (AWS: until the records
 * are a day old, then the on-failure queue; here `maxAttempts`, then an error line). Shards open at start are read
 * from their latest record (a restart does not replay old changes); shards that open later from their first.
 */
export class LocalStreamPoller {
  private readonly streams: DynamoDBStreamsClient;
  private readonly table: DynamoDBClient;
  private readonly functions: readonly StreamFunctionDefinition[];
  private readonly load = createHandlerLoader<StreamHandler>('stream');
  private readonly iterators = new Map<string, string>();
  private readonly closed = new Set<string>();
  private streamArn: string | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private busy = false;
  private lastPassEmpty = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: StreamPollerOptions) {
    const client = {
      endpoint: options.endpoint,
      region: options.region,
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 3,
    };
    this.streams = new DynamoDBStreamsClient(client);
    this.table = new DynamoDBClient(client);
    this.functions = options.streamFunctions ?? allStreamFunctions;
  }

  /** Finds the table's stream and positions every open shard at its latest record; then polls until stop(). */
  async start(): Promise<void> {
    if (this.functions.length === 0) return;
    const table = await this.table.send(new DescribeTableCommand({ TableName: this.options.tableName }));
    this.streamArn = table.Table?.LatestStreamArn;
    if (!this.streamArn)
      throw new Error(`table ${this.options.tableName} has no stream (local/dynamodb.ts enables one)`);
    await this.discoverShards('LATEST');
    this.loop = this.run();
  }

  /** Resolves once a whole pass over the shards found nothing new and no batch is running (tests, benchmarks). */
  settled(): Promise<void> {
    if (!this.loop) return Promise.resolve();
    this.lastPassEmpty = false;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private async run(): Promise<void> {
    let passes = 0;
    while (!this.stopped) {
      let found = 0;
      try {
        // New shards (DynamoDB Local rolls them over) are looked for every 50 passes, and whenever one closed.
        if (passes % 50 === 0 || this.iterators.size === 0) await this.discoverShards('TRIM_HORIZON');
        for (const [shardId, iterator] of [...this.iterators]) {
          if (this.stopped) break;
          found += await this.pollShard(shardId, iterator);
        }
      } catch (error) {
        if (!this.stopped) console.error('[streams] polling failed; trying again', error);
      }
      passes += 1;
      if (found === 0) {
        if (this.lastPassEmpty) for (const resolve of this.waiters.splice(0)) resolve();
        this.lastPassEmpty = true;
        await new Promise((resolve) => setTimeout(resolve, this.options.idleMs ?? 100).unref?.());
      } else {
        this.lastPassEmpty = false;
      }
    }
  }

  private async discoverShards(position: 'LATEST' | 'TRIM_HORIZON'): Promise<void> {
    let exclusiveStartShardId: string | undefined;
    do {
      const out = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      for (const shard of out.StreamDescription?.Shards ?? []) {
        const id = shard.ShardId!;
        if (this.iterators.has(id) || this.closed.has(id)) continue;
        // A shard that ended before this poller knew it: its records predate the start.
        if (position === 'LATEST' && shard.SequenceNumberRange?.EndingSequenceNumber) {
          this.closed.add(id);
          continue;
        }
        const it = await this.streams.send(
          new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: id, ShardIteratorType: position }),
        );
        if (it.ShardIterator) this.iterators.set(id, it.ShardIterator);
      }
      exclusiveStartShardId = out.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
  }

  /** Reads what is new in one shard and hands it over; the iterator moves on only once every function took it. */
  private async pollShard(shardId: string, iterator: string): Promise<number> {
    const out = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
    const records = (out.Records ?? []).map(toLambdaRecord);
    if (records.length > 0) {
      this.busy = true;
      try {
        for (const fn of this.functions)
          await this.deliver(
            fn,
            records.filter((r) => matches(fn, r)),
          );
      } finally {
        this.busy = false;
      }
    }
    if (out.NextShardIterator) this.iterators.set(shardId, out.NextShardIterator);
    else {
      this.iterators.delete(shardId);
      this.closed.add(shardId);
    }
    return records.length;
  }

  private async deliver(fn: StreamFunctionDefinition, records: DynamoDBRecord[]): Promise<void> {
    const size = fn.batchSize ?? STREAM_FUNCTION_DEFAULTS.batchSize;
    for (let i = 0; i < records.length; i += size) {
      const batch = records.slice(i, i + size);
      const maxAttempts = this.options.maxAttempts ?? 10;
      for (let attempt = 1; ; attempt += 1) {
        try {
          const handler = await this.load(fn.handler);
          const context = createLambdaContext({
            functionName: fn.handler,
            awsRequestId: randomUUID(),
            timeoutSeconds: fn.timeoutSeconds ?? STREAM_FUNCTION_DEFAULTS.timeoutSeconds,
            region: this.options.region,
          });
          await handler({ Records: batch }, context);
          break;
        } catch (error) {
          if (attempt >= maxAttempts || this.stopped) {
            console.error(
              `[${fn.handler}] a stream batch of ${batch.length} records failed ${attempt} times; skipped`,
              error,
            );
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 50 * 2 ** attempt)));
        }
      }
    }
  }

  get running(): boolean {
    return this.busy;
  }
}

/**
 * The event source mapping's filter (infra/stream-function.ts), applied here: an item that names its `entity` passes
 * when the function wants that entity; one written before the attribute existed passes on its key prefix.
 */
export const matches = (fn: StreamFunctionDefinition, record: DynamoDBRecord): boolean => {
  const entity = record.dynamodb?.NewImage?.['entity']?.S;
  if (entity !== undefined) return (fn.entities as readonly string[]).includes(entity);
  const pk = record.dynamodb?.Keys?.['pk']?.S;
  return pk !== undefined && fn.entities.some((e) => pk.startsWith(ENTITY_PK_PREFIX[e]));
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
