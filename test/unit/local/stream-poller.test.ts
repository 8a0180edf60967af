import { BatchWriteItemCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StreamFunctionDefinition } from '../../../functions/streams.js';
import { startDynamoLocal, type DynamoLocalHandle } from '../../../local/dynamodb.js';
import { LocalStreamPoller, type StreamHandler } from '../../../local/engine/stream-poller.js';
import { ENTITY } from '../../../shared/adapters/dynamo/keys.js';
import type { StreamWindowEvent } from '../../../shared/stream-event.js';

/**
 * The local event source mapping against DynamoDB Local's real stream: each function reads on its own, a failing
 * batch is bisected (a windowed one retried whole), a windowed event names its shard and must be answered with state.
 */

const TABLE = 'stream-poller-test';
const CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
let dynamo: DynamoLocalHandle;
let db: DynamoDBClient;
const pollers: LocalStreamPoller[] = [];
let written = 0;

beforeAll(async () => {
  dynamo = await startDynamoLocal({ port: 0, tableName: TABLE });
  db = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: CREDENTIALS });
}, 60_000);

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((p) => p.stop()));
  vi.restoreAllMocks();
});

afterAll(async () => {
  db?.destroy();
  await dynamo?.stop();
});

/** A contact-like item (the functions below want contacts); `n` tells the records apart. */
const item = (n: number) => marshall({ pk: `POLLER#${written}`, sk: `N#${n}`, entity: ENTITY.contact, n });
const put = async (n: number) => {
  written += 1;
  await db.send(new PutItemCommand({ TableName: TABLE, Item: item(n) }));
};
/** One request: the records land in the stream together, so one read takes them all. */
const putAll = async (ns: number[]) => {
  written += 1;
  await db.send(
    new BatchWriteItemCommand({ RequestItems: { [TABLE]: ns.map((n) => ({ PutRequest: { Item: item(n) } })) } }),
  );
};
const numbersOf = (records: readonly DynamoDBRecord[]) => records.map((r) => Number(r.dynamodb?.NewImage?.['n']?.N));

const definition = (handler: string, more: Partial<StreamFunctionDefinition> = {}): StreamFunctionDefinition => ({
  handler,
  entities: [ENTITY.contact],
  tableAccess: 'read',
  ...more,
});

async function startPoller(
  handlers: Record<string, StreamHandler>,
  functions: StreamFunctionDefinition[],
  options: { maxAttempts?: number; windowedStart?: 'TRIM_HORIZON' | 'LATEST' } = {},
) {
  const poller = new LocalStreamPoller({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    tableName: TABLE,
    streamFunctions: functions,
    idleMs: 20,
    retryDelayMs: () => 10,
    loadHandler: async (name) => handlers[name]!,
    ...options,
  });
  pollers.push(poller);
  await poller.start();
  return poller;
}

async function until(what: string, test: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`no ${what} in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the local stream poller', () => {
  it('a function that keeps failing holds no other; it re-reads from its own position and settled() waits for it', async () => {
    let healthy = false;
    const failingCalls: number[][] = [];
    const handlers: Record<string, StreamHandler> = {
      steady: async () => {},
      failing: async (event) => {
        failingCalls.push(numbersOf(event.Records));
        if (!healthy) throw new Error('store unavailable');
      },
    };
    const poller = await startPoller(handlers, [definition('steady'), definition('failing')], { maxAttempts: 10_000 });
    const applied: Record<string, number[]> = { steady: [], failing: [] };
    for (const name of ['steady', 'failing'])
      poller.onApplied(name, (records) => applied[name]!.push(...numbersOf(records)));

    for (const n of [1, 2, 3]) await put(n);
    await until('steady records', () => applied['steady']!.length === 3);
    expect(applied['steady']).toEqual([1, 2, 3]);
    // Meanwhile the failing function was handed its records again and again, and took none.
    await until('retries', () => failingCalls.length >= 3);
    expect(applied['failing']).toEqual([]);

    let settled = false;
    const settling = poller.settled().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);

    healthy = true;
    await settling;
    expect(applied['failing']).toEqual([1, 2, 3]);
    expect(applied['steady']).toEqual([1, 2, 3]);
    expect(poller.running).toBe(false);
  }, 30_000);

  it('counts its own reads of the stream and runs every invocation through the wrapper it was given', async () => {
    const seen: number[] = [];
    const poller = await startPoller({ watcher: async (event) => void seen.push(...numbersOf(event.Records)) }, [
      definition('watcher'),
    ]);
    const wrapped: string[] = [];
    poller.wrapInvocations(async (handler, invoke) => {
      wrapped.push(handler);
      return invoke();
    });
    const before = poller.requests();
    await put(7);
    await until('the record', () => seen.includes(7));
    const after = poller.requests();
    expect(wrapped.length).toBeGreaterThan(0);
    expect(new Set(wrapped)).toEqual(new Set(['watcher']));
    expect(after['GetRecordsCommand']!).toBeGreaterThan(before['GetRecordsCommand'] ?? 0);
    expect(before['DescribeStreamCommand']).toBeGreaterThan(0);
  }, 30_000);

  it('bisects a batch its function throws on, down to the one record that fails, which alone is skipped', async () => {
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const batches: number[][] = [];
    const handlers: Record<string, StreamHandler> = {
      picky: async (event) => {
        const ns = numbersOf(event.Records);
        batches.push(ns);
        // The first record holds the reader while the next four are written, so they arrive as one batch.
        if (ns[0] === 0) await firstHeld;
        if (ns.includes(3)) throw new Error('record 3 cannot be applied');
      },
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const poller = await startPoller(handlers, [definition('picky')], { maxAttempts: 3 });
    const applied: number[][] = [];
    poller.onApplied('picky', (records) => applied.push(numbersOf(records)));

    await put(0);
    await until('the first batch', () => batches.length === 1);
    await putAll([1, 2, 3, 4]);
    releaseFirst();
    await poller.settled();

    expect(batches).toEqual([[0], [1, 2, 3, 4], [1, 2], [3, 4], [3], [3], [3], [4]]);
    expect(applied).toEqual([[0], [1, 2], [4]]);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toContain('[picky] a stream record failed 3 times on its own; skipped');
  }, 30_000);

  it("a windowed function's event names the shard and the window; an answer without state is a failure, retried whole", async () => {
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const events: StreamWindowEvent[] = [];
    let answers = 0;
    const handlers: Record<string, StreamHandler> = {
      counters: async (event) => {
        const windowed = event as StreamWindowEvent;
        events.push(structuredClone(windowed));
        if (numbersOf(event.Records)[0] === 0) await firstHeld;
        answers += 1;
        // The second answer forgets its state: Lambda counts that invocation as failed.
        return answers === 2 ? { batchItemFailures: [] } : { state: { answers: String(answers) } };
      },
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const poller = await startPoller(handlers, [definition('counters', { tumblingWindowSeconds: 900 })], {
      maxAttempts: 3,
      windowedStart: 'LATEST',
    });
    const applied: { ns: number[]; at: number; created: number[] }[] = [];
    poller.onApplied('counters', (records, at) =>
      applied.push({
        ns: numbersOf(records),
        at,
        created: records.map((r) => r.dynamodb?.ApproximateCreationDateTime ?? Number.NaN),
      }),
    );

    const before = Date.now();
    await put(0);
    await until('the first batch', () => events.length === 1);
    await putAll([1, 2, 3]);
    releaseFirst();
    await poller.settled();

    const streams = new DynamoDBStreamsClient({
      endpoint: dynamo.endpoint,
      region: 'us-east-1',
      credentials: CREDENTIALS,
    });
    const shards = await streams.send(new DescribeStreamCommand({ StreamArn: events[0]!.eventSourceARN }));
    streams.destroy();
    const shardIds = (shards.StreamDescription?.Shards ?? []).map((s) => s.ShardId);

    // [0], then [1, 2, 3] answered without state, then [1, 2, 3] again whole (no halves).
    expect(events.map((e) => numbersOf(e.Records))).toEqual([[0], [1, 2, 3], [1, 2, 3]]);
    for (const event of events) {
      expect(shardIds).toContain(event.shardId);
      expect(event).toMatchObject({ isFinalInvokeForWindow: false, isWindowTerminatedEarly: false });
      const [start, end] = [Date.parse(event.window.start), Date.parse(event.window.end)];
      expect(end - start).toBe(900_000);
      expect(start % 900_000).toBe(0);
      expect(start).toBeLessThanOrEqual(before);
      expect(end).toBeGreaterThan(before);
    }
    expect(events[0]!.state).toEqual({});
    // Within one window each batch gets the state last answered (a refused answer changes nothing).
    if (events[0]!.window.start === events[2]!.window.start) {
      expect(events[1]!.state).toEqual({ answers: '1' });
      expect(events[2]!.state).toEqual({ answers: '1' });
    }
    expect(applied.map((a) => a.ns)).toEqual([[0], [1, 2, 3]]);
    for (const a of applied) for (const created of a.created) expect(a.at).toBeGreaterThanOrEqual(created * 1000);
    expect(errors).not.toHaveBeenCalled();
  }, 30_000);

  it('a windowed batch that keeps failing is retried whole maxAttempts times, then skipped with an error line', async () => {
    const sizes: number[] = [];
    const handlers: Record<string, StreamHandler> = {
      counters: async (event) => {
        sizes.push(event.Records.length);
        return {};
      },
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const poller = await startPoller(handlers, [definition('counters', { tumblingWindowSeconds: 60 })], {
      maxAttempts: 3,
      windowedStart: 'LATEST',
    });
    const applied: number[] = [];
    poller.onApplied('counters', (records) => applied.push(...numbersOf(records)));
    await putAll([1, 2]);
    await poller.settled();
    // Usually one read takes both records; on a loaded machine DynamoDB Local may hand them over in two reads, each
    // then a batch of its own, tried whole three times and skipped with its own error line.
    const batches = Array.from({ length: sizes.length / 3 }, (_, b) => sizes.slice(b * 3, b * 3 + 3));
    expect(sizes.length % 3).toBe(0);
    for (const tries of batches) expect(new Set(tries).size).toBe(1);
    expect(batches.reduce((sum, tries) => sum + (tries[0] ?? 0), 0)).toBe(2);
    expect(applied).toEqual([]);
    expect(errors).toHaveBeenCalledTimes(batches.length);
    expect(String(errors.mock.calls[0]?.[0])).toContain(`[counters] a stream batch of ${sizes[0]} record`);
    expect(String(errors.mock.calls[0]?.[1])).toContain('without its state');
  }, 30_000);

  it('onApplied refuses a function the table does not have, and its remover stops the calls', async () => {
    const handlers: Record<string, StreamHandler> = { steady: async () => {} };
    const poller = await startPoller(handlers, [definition('steady')]);
    expect(() => poller.onApplied('nobody', () => {})).toThrow('no stream function "nobody"');
    const heard: number[] = [];
    const remove = poller.onApplied('steady', (records) => heard.push(...numbersOf(records)));
    await put(1);
    await poller.settled();
    remove();
    await put(2);
    await poller.settled();
    expect(heard).toEqual([1]);
  }, 30_000);

  it('a windowed function started after changes were written reads them from the shards’ start; a plain one from the latest', async () => {
    await put(7001);
    const seen: Record<string, number[]> = { windowed: [], plain: [] };
    const handlers: Record<string, StreamHandler> = {
      windowed: async (event) => {
        seen['windowed']!.push(...numbersOf(event.Records));
        return { state: {}, batchItemFailures: [] };
      },
      plain: async (event) => {
        seen['plain']!.push(...numbersOf(event.Records));
      },
    };
    const poller = await startPoller(handlers, [
      definition('windowed', { tumblingWindowSeconds: 900 }),
      definition('plain'),
    ]);
    await put(7002);
    await poller.settled();
    expect(seen['windowed']!.filter((n) => n > 7000)).toEqual([7001, 7002]);
    expect(seen['plain']!.filter((n) => n > 7000)).toEqual([7002]);
  }, 30_000);
});
