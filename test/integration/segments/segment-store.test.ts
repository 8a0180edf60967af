import { describe, expect, inject, it } from 'vitest';
import { memoryStores } from '../../../shared/adapters/memory/memory-stores.js';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { membershipStore } from '../../../shared/composition/providers/membership-store.js';
import { segmentStore } from '../../../shared/composition/providers/segment-store.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { backfillSegmentPage } from '../../../shared/domain/segments/backfill-segment.js';
import type { BatchMessage, Queue, QueueName } from '../../../shared/platform.js';
import { loadConfig } from '../../../shared/config.js';
import { compileIndex } from '../../../shared/domain/segments/definition/specs.js';
import type { SegmentDefinition } from '../../../shared/domain/segments/definition/types.js';
import type {
  IndexWrite,
  SegmentRecord,
  SegmentStore,
  StoredSegmentIndex,
} from '../../../shared/domain/segments/segment-store.js';
import { contactRecord } from '../../unit/support/contact-fixtures.js';
import { AT, freshClientId, LATER } from '../contracts/support.js';

/** The SegmentStore contract, on the memory adapter and on the DynamoDB adapter against DynamoDB Local. */
type SegmentPorts = Pick<Ports, 'segments' | 'contacts' | 'membership'>;
let dynamo: Container | undefined;
function dynamoPorts(): SegmentPorts {
  dynamo ??= createContainer({
    config: loadConfig({
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
      CONFIG_CACHE_TTL_SECONDS: '0',
    }),
  });
  return dynamo.resolve([segmentStore, contactStore, membershipStore]);
}

const PORTS: [string, () => SegmentPorts][] = [
  ['memory', () => memoryStores()],
  ['dynamodb', dynamoPorts],
];
const ADAPTERS: [string, () => SegmentStore][] = PORTS.map(([name, ports]) => [name, () => ports().segments]);

const tagged = (tag: string): SegmentDefinition => ({
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has', tag }] }],
});
const segmentOf = (clientId: number, id: number, tag: string, version = 1): SegmentRecord => ({
  id,
  client_id: clientId,
  name: `S${id}`,
  definition: tagged(tag),
  version,
  status: 'building',
  backfill: { version, started_at: AT },
  created_at: AT,
  updated_at: AT,
});
const indexAfter = (index: StoredSegmentIndex, segment: SegmentRecord): IndexWrite => ({
  readVersion: index.version,
  body: compileIndex([
    ...index.segments.filter((s) => s.id !== segment.id),
    { id: segment.id, version: segment.version, definition: segment.definition },
  ]),
});

/** Creates the client's next segment as the use case does: read, then write on what was read. */
async function create(store: SegmentStore, clientId: number, tag: string, max = 3) {
  const read = await store.readForWrite(clientId);
  const segment = segmentOf(clientId, read.count?.next_id ?? 1, tag);
  const outcome = await store.create({
    segment,
    countRead: read.count,
    max,
    index: indexAfter(read.index, segment),
    shards: 8,
  });
  return { outcome, segment };
}

describe.each(ADAPTERS)('SegmentStore contract (%s)', (_name, storeOf) => {
  it('gives one of two creates on the same read the id, the other stale; counts them against the plan', async () => {
    const store = storeOf();
    const clientId = freshClientId();
    const read = await store.readForWrite(clientId);
    const a = segmentOf(clientId, 1, 'a');
    const b = segmentOf(clientId, 1, 'b');

    const outcomes = await Promise.all(
      [a, b].map((segment) =>
        store.create({ segment, countRead: read.count, max: 3, index: indexAfter(read.index, segment), shards: 8 }),
      ),
    );
    await create(store, clientId, 'c');
    await create(store, clientId, 'd');
    const full = await create(store, clientId, 'e');

    expect([...outcomes].sort()).toEqual(['done', 'stale']);
    expect(full.outcome).toBe('limit');
    const { count } = await store.list(clientId);
    expect(count).toMatchObject({ n: 3, next_id: 4 });
    expect(count!.segments.map((s) => [s.id, s.status])).toEqual([
      [1, 'building'],
      [2, 'building'],
      [3, 'building'],
    ]);
    const after = await store.readForWrite(clientId);
    expect(after.index.version).toBe(3);
    expect(after.index.segments.map((s) => s.id)).toEqual([1, 2, 3]);
  });

  it('refuses an update on a stale head version or a stale index version, writing nothing', async () => {
    const store = storeOf();
    const clientId = freshClientId();
    const { segment } = await create(store, clientId, 'a');
    const read = await store.readForWrite(clientId, segment.id);
    const v2 = { ...segment, version: 2, definition: tagged('b'), backfill: { version: 2, started_at: LATER } };
    await create(store, clientId, 'other');

    const staleIndex = await store.update({
      segment: v2,
      readVersion: 1,
      rebuild: { index: indexAfter(read.index, v2), shards: 8 },
    });
    const staleHead = await store.update({ segment: { ...segment, name: 'x' }, readVersion: 2 });
    const fresh = await store.readForWrite(clientId, segment.id);
    const done = await store.update({
      segment: v2,
      readVersion: 1,
      rebuild: { index: indexAfter(fresh.index, v2), shards: 8 },
    });

    expect(staleIndex).toBe('stale');
    expect(staleHead).toBe('stale');
    expect(fresh.segment).toMatchObject({ version: 1, name: 'S1' });
    expect(done).toBe('done');
    const now = await store.get(clientId, segment.id);
    expect(now.segment).toMatchObject({ version: 2, definition: tagged('b') });
    expect(now.progress.map((p) => [p.shard, p.version, p.after, p.done])).toEqual(
      Array.from({ length: 8 }, (_, shard) => [shard, 2, 0, false]),
    );
  });

  it('records a backfill page once from where it started, sets the segment ready once, and nets quiet backfills', async () => {
    const store = storeOf();
    const clientId = freshClientId();
    const { segment } = await create(store, clientId, 'a');
    const page = { shard: 3, version: 1, after: 120, scanned: 40, matched: 5, beat_at: LATER, done: false };

    const first = await store.recordPage(clientId, segment.id, 0, page);
    const again = await store.recordPage(clientId, segment.id, 0, { ...page, after: 999 });
    const otherVersion = await store.recordPage(clientId, segment.id, 120, { ...page, version: 2, after: 130 });
    const quietBefore = await store.staleBackfills('2026-01-15T10:30:00.000Z', 1_000);
    await store.touchBackfill(clientId, segment.id, 1, '2026-01-15T10:40:00.000Z');
    const quietAfterTouch = await store.staleBackfills('2026-01-15T10:30:00.000Z', 1_000);
    const wrongVersion = await store.finishBackfill(clientId, segment.id, 2, LATER);
    const finished = await store.finishBackfill(clientId, segment.id, 1, LATER);
    const twice = await store.finishBackfill(clientId, segment.id, 1, LATER);
    const quietAfterReady = await store.staleBackfills('2026-12-31T00:00:00.000Z', 1_000);

    expect([first, again, otherVersion]).toEqual([true, false, false]);
    const progress = await store.progress(clientId, segment.id);
    expect(progress.find((p) => p.shard === 3)).toEqual(page);
    const mine = (list: { client_id: number }[]) => list.filter((s) => s.client_id === clientId);
    expect(mine(quietBefore)).toEqual([{ client_id: clientId, segment_id: segment.id }]);
    expect(mine(quietAfterTouch)).toEqual([]);
    expect([wrongVersion, finished, twice]).toEqual([false, true, false]);
    expect(mine(quietAfterReady)).toEqual([]);
    const got = await store.get(clientId, segment.id);
    expect(got.segment).toMatchObject({
      status: 'ready',
      backfill: { version: 1, started_at: AT, finished_at: LATER },
    });
    expect((await store.list(clientId)).count!.segments[0]).toMatchObject({ status: 'ready' });
  });

  it('deletes a segment with its summary, its place in the count, its progress and its index entry', async () => {
    const store = storeOf();
    const clientId = freshClientId();
    const { segment } = await create(store, clientId, 'a');
    await create(store, clientId, 'b');
    const read = await store.readForWrite(clientId, segment.id);
    const without: IndexWrite = {
      readVersion: read.index.version,
      body: compileIndex(read.index.segments.filter((s) => s.id !== segment.id)),
    };

    const stale = await store.delete(segment, 2, without);
    const done = await store.delete(segment, 1, without);

    expect(stale).toBe('stale');
    expect(done).toBe('done');
    expect(await store.get(clientId, segment.id)).toEqual({ progress: [] });
    const after = await store.readForWrite(clientId);
    expect(after.count).toMatchObject({ n: 1, next_id: 3 });
    expect(after.count!.segments.map((s) => s.id)).toEqual([2]);
    expect(after.index.segments.map((s) => s.id)).toEqual([2]);
  });

  it('records the broadcasts scheduled to a segment, and refuses a delete a schedule landed after the read of', async () => {
    const store = storeOf();
    const clientId = freshClientId();
    const { segment } = await create(store, clientId, 'a');
    const marked = [
      await store.markBroadcastUse(clientId, segment.id, 7),
      await store.markBroadcastUse(clientId, segment.id, 3),
      await store.markBroadcastUse(clientId, 99, 4),
    ];
    const read = await store.readForWrite(clientId, segment.id);
    const without: IndexWrite = {
      readVersion: read.index.version,
      body: compileIndex(read.index.segments.filter((s) => s.id !== segment.id)),
    };

    await store.markBroadcastUse(clientId, segment.id, 8);
    const raced = await store.delete(segment, 1, without, read.broadcastUses!.n);
    const again = await store.readForWrite(clientId, segment.id);
    const done = await store.delete(segment, 1, without, again.broadcastUses!.n);

    expect(marked).toEqual([true, true, false]);
    expect(read.broadcastUses).toEqual({ broadcastIds: [3, 7], n: 2 });
    expect(raced).toBe('stale');
    expect(again.broadcastUses).toEqual({ broadcastIds: [3, 7, 8], n: 3 });
    expect(done).toBe('done');
    // Gone with the segment: a segment made again under a new id starts with none.
    expect((await store.readForWrite(clientId, segment.id)).broadcastUses).toBeUndefined();
  });

  it('refuses a delete conditioned on a journey index version no longer current (a journey published since the read)', async () => {
    const store = storeOf();
    const clientId = freshClientId();
    const { segment } = await create(store, clientId, 'a');
    const read = await store.readForWrite(clientId, segment.id);
    const without: IndexWrite = {
      readVersion: read.index.version,
      body: compileIndex(read.index.segments.filter((s) => s.id !== segment.id)),
    };

    // The client has no journey index (version 0): a delete that read version 3 is refused, one that read 0 is done.
    const raced = await store.delete(segment, 1, without, 0, 3);
    const done = await store.delete(segment, 1, without, 0, 0);

    expect(raced).toBe('stale');
    expect(done).toBe('done');
  });
});

describe.each(PORTS)('SegmentStore reads of contacts and members (%s)', (_name, portsOf) => {
  it('pages a listing shard by id, samples the shards with completeness, and lists members over their shards', async () => {
    // Prepare: 40 contacts (5 a listing shard); contacts 2, 4, …, 40 members of segment 1.
    const { segments, contacts, membership } = portsOf();
    const clientId = freshClientId();
    for (let id = 1; id <= 40; id += 1)
      await contacts.create(
        contactRecord({ id, client_id: clientId, email: `c${id}@example.com`, client_contact_id: `crm-${id}` }),
      );
    const members = Array.from({ length: 20 }, (_, i) => 2 * (i + 1));
    await membership.commit(
      members.map((contactId) => ({
        clientId,
        contactId,
        svRead: undefined,
        state: { sv: 1, members: { 1: 1 } },
        entered: [1],
        rezoned: [],
        left: [],
        at: AT,
      })),
    );

    // Act
    const shard3 = await segments.contactPage(clientId, 3, 0, 3);
    const shard3Rest = await segments.contactPage(clientId, 3, shard3.ids.at(-1)!, 3);
    const all = await segments.previewSample(clientId, 40, false);
    const some = await segments.previewSample(clientId, 16, false);
    const firstPage = await segments.members(clientId, 1, 0, 7);
    const secondPage = await segments.members(clientId, 1, firstPage.nextAfter!, 7);
    const memberShard = await segments.memberPage(clientId, 1, 4, 0, 100);

    // Assess
    expect(shard3.ids).toEqual([3, 11, 19]);
    expect(shard3.last).toBe(false);
    expect(shard3Rest).toEqual({ ids: [27, 35], last: true });
    expect(all.complete).toBe(true);
    expect(all.contacts.map((c) => c.contact.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(some.complete).toBe(false);
    expect(some.contacts).toHaveLength(16);
    expect(firstPage.members.map((m) => m.contact_id)).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(firstPage.members[0]!.at).toBe(AT);
    expect(secondPage.members.map((m) => m.contact_id)).toEqual([16, 18, 20, 22, 24, 26, 28]);
    expect(memberShard).toEqual({ ids: [4, 20, 36], last: true });
  });
});

describe('a backfill page on DynamoDB Local', () => {
  it("evaluates a shard's last page in 7 requests: progress and head, the listing, the contacts read, one transaction, the progress write and read", async () => {
    // Prepare: 96 contacts tagged vip, 12 in each listing shard, and a segment of them at version 1.
    const ports = dynamoPorts();
    const clientId = freshClientId();
    for (let id = 1; id <= 96; id += 1)
      await ports.contacts.create(
        contactRecord({
          id,
          client_id: clientId,
          email: `c${id}@example.com`,
          client_contact_id: `crm-${id}`,
          tags: ['vip'],
        }),
      );
    const { segment } = await create(ports.segments, clientId, 'vip');
    const sent: unknown[] = [];
    const queue: Queue = {
      send: async (_q, message) => void sent.push(message),
      sendBatch: async <Q extends QueueName>(_q: Q, messages: readonly BatchMessage<Q>[]) =>
        void sent.push(...messages.map((m) => m.message)),
    };
    const deps = { ...ports, queue, clock: { now: () => new Date(LATER) } };

    // Act
    const { usage } = await dynamo!.requestCounter.measure(() =>
      backfillSegmentPage(deps, {
        kind: 'backfill',
        client_id: clientId,
        segment_id: segment.id,
        version: 1,
        shard: 5,
        after: 0,
      }),
    );

    // Assess: the shard's 12 contacts entered, its progress done, nothing sent (its last page, not the last shard).
    expect(usage.by_command).toEqual({
      QueryCommand: 3,
      BatchGetItemCommand: 2,
      TransactWriteItemsCommand: 1,
      UpdateItemCommand: 1,
    });
    expect(usage.requests).toBe(7);
    expect(sent).toEqual([]);
    const progress = await ports.segments.progress(clientId, segment.id);
    expect(progress.find((p) => p.shard === 5)).toMatchObject({ after: 93, scanned: 12, matched: 12, done: true });
    const page = await ports.segments.members(clientId, segment.id, 0, 100);
    expect(page.members.map((m) => m.contact_id)).toEqual([5, 13, 21, 29, 37, 45, 53, 61, 69, 77, 85, 93]);
  });
});
