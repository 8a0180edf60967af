import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import {
  type BackfillMessage,
  backfillSegmentPage,
  purgeSegmentPage,
  restartStaleBackfills,
} from '../../../../shared/domain/segments/backfill-segment.js';
import { createSegment } from '../../../../shared/domain/segments/create.js';
import { deleteSegment } from '../../../../shared/domain/segments/delete.js';
import { getSegment } from '../../../../shared/domain/segments/get.js';
import { listSegments } from '../../../../shared/domain/segments/list.js';
import { listSegmentMembers } from '../../../../shared/domain/segments/members.js';
import { previewSegment } from '../../../../shared/domain/segments/preview.js';
import type { SegmentCreateBody } from '../../../../shared/domain/segments/schemas-api.js';
import { updateSegment } from '../../../../shared/domain/segments/update.js';
import { AppError } from '../../../../shared/errors.js';
import type { BroadcastStatus } from '../../../../shared/public/broadcast-rules.js';
import { indexWrite } from '../../../../shared/domain/segments/segment-index.js';
import type { BatchMessage, Queue, QueueMessages, QueueName, SegmentsMessage } from '../../../../shared/platform.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const CLIENT = 7;
const OTHER = 8;

const tagged = (tag: string): SegmentCreateBody['definition'] => ({
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has', tag }] }],
});

/** A queue that keeps what is sent; `failNextSend` makes the next single send throw (a crash before it). */
class RecordingQueue implements Queue {
  sent: Extract<SegmentsMessage, { kind: 'backfill' | 'purge' }>[] = [];
  failNextSend = false;
  async send<Q extends QueueName>(_queue: Q, message: QueueMessages[Q]): Promise<void> {
    if (this.failNextSend) {
      this.failNextSend = false;
      throw new Error('injected: the queue is unreachable');
    }
    this.sent.push(message as Extract<SegmentsMessage, { kind: 'backfill' | 'purge' }>);
  }
  async sendBatch<Q extends QueueName>(_queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    for (const m of messages) this.sent.push(m.message as Extract<SegmentsMessage, { kind: 'backfill' | 'purge' }>);
  }
}

function harness(contacts = 0, tagEvery = 3) {
  const stores = memoryStores();
  const queue = new RecordingQueue();
  let now = new Date('2026-06-01T12:00:00.000Z');
  const clock = { now: () => now };
  for (let id = 1; id <= contacts; id += 1) {
    stores.contacts.contacts.set(
      clientKey(CLIENT, id),
      contactRecord({ id, client_id: CLIENT, email: `c${id}@example.com`, tags: id % tagEvery === 0 ? ['vip'] : [] }),
    );
  }
  // Broadcast heads' statuses as the segment delete reads them (the broadcast store has no memory twin).
  const broadcastStatuses = new Map<number, BroadcastStatus>();
  const broadcasts = {
    statuses: async (_clientId: number, ids: readonly number[]) =>
      new Map(ids.flatMap((id) => (broadcastStatuses.has(id) ? [[id, broadcastStatuses.get(id)!] as const] : []))),
  };
  const deps = { ...stores, queue, clock, broadcasts };
  /** Delivers every queued message (and those they send) until the queue is empty; answers how many ran. */
  const drain = async () => {
    let ran = 0;
    while (queue.sent.length > 0) {
      const message = queue.sent.shift()!;
      if (message.kind === 'purge') await purgeSegmentPage(deps, message);
      else await backfillSegmentPage(deps, message);
      ran += 1;
    }
    return ran;
  };
  return {
    stores,
    queue,
    deps,
    drain,
    broadcastStatuses,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
  };
}

const refusal = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return { status: (error as AppError).status, items: (error as AppError).items };
};

describe('segments API over memory ports', () => {
  it('creates a segment building, backfills every listing shard page by page to ready with the exact members', async () => {
    // Prepare: 1,000 contacts, every third tagged vip (333): 125 a listing shard, two 100-contact pages each.
    const h = harness(1_000);

    // Act
    const created = await createSegment(h.deps, CLIENT, { name: 'VIPs', definition: tagged('vip') });
    const firstMessages = h.queue.sent.length;
    const ran = await h.drain();

    // Assess
    expect(created).toMatchObject({ id: 1, status: 'building', version: 1, count: 0 });
    expect(firstMessages).toBe(8);
    expect(ran).toBe(16);
    const after = await getSegment(h.deps, CLIENT, 1);
    expect(after).toMatchObject({ status: 'ready', count: 333 });
    expect(after.backfill).toMatchObject({ version: 1, scanned: 1_000, done: true, shards_done: 8 });
    expect(h.stores.membership.membersOf(CLIENT, 1)).toHaveLength(333);
    const list = await listSegments(h.deps, CLIENT);
    expect(list.segments).toEqual([expect.objectContaining({ id: 1, status: 'ready', count: 333 })]);
    expect(list.meta).toEqual({ total: 1, max_segments: 3 });
  });

  it('records a page delivered twice once and does not double the chain', async () => {
    // 1,000 contacts: 125 a listing shard, so a shard's first page sends its next.
    const h = harness(1_000, 1);
    await createSegment(h.deps, CLIENT, { name: 'All tagged', definition: tagged('vip') });
    const first = h.queue.sent.find((m): m is BackfillMessage => m.kind === 'backfill' && m.shard === 1)!;

    // Act: the shard's first page runs, then its duplicate.
    h.queue.sent = h.queue.sent.filter((m) => m !== first);
    await backfillSegmentPage(h.deps, first);
    const afterFirst = h.queue.sent.length;
    await backfillSegmentPage(h.deps, first);

    // Assess: the duplicate sent nothing and the backfill still ends exact.
    expect(h.queue.sent.filter((m) => m.shard === 1)).toHaveLength(1);
    expect(h.queue.sent.length).toBe(afterFirst);
    await h.drain();
    expect(await getSegment(h.deps, CLIENT, 1)).toMatchObject({ status: 'ready', count: 1_000 });
  });

  it('restarts a chain whose next page was lost after its progress moved, from that progress', async () => {
    // Prepare: 1,000 contacts, so shard 1 needs two pages.
    const h = harness(1_000, 2);
    await createSegment(h.deps, CLIENT, { name: 'Half', definition: tagged('vip') });
    const first = h.queue.sent.find((m): m is BackfillMessage => m.kind === 'backfill' && m.shard === 1)!;
    h.queue.sent = h.queue.sent.filter((m) => m !== first);
    h.queue.failNextSend = true;

    // Act: the page is done and recorded, its next message is lost; the rest drains; the sweep runs later.
    await expect(backfillSegmentPage(h.deps, first)).rejects.toThrow('injected');
    // The message comes back: its progress moved on, so it records nothing and sends nothing.
    await backfillSegmentPage(h.deps, first);
    await h.drain();
    const stuck = await getSegment(h.deps, CLIENT, 1);
    const early = await restartStaleBackfills(h.deps);
    h.advance(3 * 60_000);
    const restarted = await restartStaleBackfills(h.deps);
    await h.drain();

    // Assess
    expect(stuck.status).toBe('building');
    expect(early.restarted).toBe(0);
    expect(restarted.restarted).toBe(1);
    expect(await getSegment(h.deps, CLIENT, 1)).toMatchObject({ status: 'ready', count: 500 });
  });

  it('refuses a fourth segment on the free plan with 409 max, nothing written', async () => {
    const h = harness();
    for (const n of [1, 2, 3]) await createSegment(h.deps, CLIENT, { name: `S${n}`, definition: tagged(`t${n}`) });

    const refused = await refusal(createSegment(h.deps, CLIENT, { name: 'S4', definition: tagged('t4') }));

    expect(refused).toEqual({ status: 409, items: [expect.objectContaining({ condition: 'max', key: 'segments' })] });
    expect((await listSegments(h.deps, CLIENT)).meta.total).toBe(3);
  });

  it('answers 422 with every reference issue at its body path', async () => {
    const h = harness();
    const definition: SegmentCreateBody['definition'] = {
      match: 'any',
      groups: [
        { match: 'all', conditions: [{ on: 'topic', topic_id: 9, op: 'subscribed' }] },
        {
          match: 'all',
          conditions: [
            { on: 'tag', op: 'has', tag: 'x' },
            { on: 'topic', topic_id: 4, op: 'subscribed' },
          ],
        },
      ],
    };

    const refused = await refusal(createSegment(h.deps, CLIENT, { name: 'Bad', definition }));

    expect(refused.status).toBe(422);
    expect(refused.items.map((i) => [i.key, i.condition])).toEqual([
      ['definition.groups.0.conditions.0.topic_id', 'reference'],
      ['definition.groups.1.conditions.1.topic_id', 'reference'],
    ]);
    expect((await listSegments(h.deps, CLIENT)).meta.total).toBe(0);
  });

  it('PATCH: a stale version is 409 state; a new definition is version 2, built again with its own members', async () => {
    const h = harness(60, 3);
    await createSegment(h.deps, CLIENT, { name: 'VIPs', definition: tagged('vip') });
    await h.drain();

    const stale = await refusal(updateSegment(h.deps, CLIENT, 1, { version: 2, name: 'x' }));
    const renamed = await updateSegment(h.deps, CLIENT, 1, { version: 1, name: 'Top' });
    const noBackfill = h.queue.sent.length;
    const redefined = await updateSegment(h.deps, CLIENT, 1, {
      version: 1,
      definition: { match: 'all', groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has_not', tag: 'vip' }] }] },
    });
    await h.drain();

    expect(stale).toEqual({ status: 409, items: [expect.objectContaining({ condition: 'state', key: 'version' })] });
    expect(renamed).toMatchObject({ name: 'Top', version: 1, status: 'ready' });
    expect(noBackfill).toBe(0);
    expect(redefined).toMatchObject({ version: 2, status: 'building' });
    expect(await getSegment(h.deps, CLIENT, 1)).toMatchObject({ version: 2, status: 'ready', count: 40 });
  });

  it('previews exactly over a small client, and answers 404 for another client on every verb', async () => {
    const h = harness(30, 3);
    await createSegment(h.deps, CLIENT, { name: 'VIPs', definition: tagged('vip') });
    await h.drain();

    const preview = await previewSegment(h.deps, CLIENT, { definition: tagged('vip') });
    const page = await listSegmentMembers({ ...h.deps, cursorSecret: 's' }, CLIENT, 1, { per_page: 4 });
    const statuses = await Promise.all([
      refusal(getSegment(h.deps, OTHER, 1)),
      refusal(updateSegment(h.deps, OTHER, 1, { version: 1, name: 'x' })),
      refusal(deleteSegment(h.deps, OTHER, 1)),
      refusal(listSegmentMembers({ ...h.deps, cursorSecret: 's' }, OTHER, 1, { per_page: 4 })),
    ]);

    expect(preview).toEqual({ count: 10, sampled: 30, exact: true, share: 10 / 30 });
    expect(page.contacts.map((c) => c.id)).toEqual([3, 6, 9, 12]);
    const next = await listSegmentMembers({ ...h.deps, cursorSecret: 's' }, CLIENT, 1, {
      per_page: 4,
      cursor: page.next_cursor!,
    });
    expect(next.contacts.map((c) => c.id)).toEqual([15, 18, 21, 24]);
    expect(statuses.map((s) => s.status)).toEqual([404, 404, 404, 404]);
    await deleteSegment(h.deps, CLIENT, 1);
    expect(await refusal(getSegment(h.deps, CLIENT, 1))).toMatchObject({ status: 404 });
    expect((await listSegments(h.deps, CLIENT)).meta.total).toBe(0);
  });

  it('refuses to delete a segment a live broadcast is scheduled to, naming it, and deletes it once that one is sent', async () => {
    // Prepare: broadcasts 3 (sending), 4 (paused) and 5 (sent) were scheduled to the segment; 6 to another one.
    const h = harness(6, 3);
    await createSegment(h.deps, CLIENT, { name: 'VIPs', definition: tagged('vip') });
    await createSegment(h.deps, CLIENT, { name: 'Other', definition: tagged('x') });
    for (const b of [3, 4, 5]) expect(await h.stores.segments.markBroadcastUse(CLIENT, 1, b)).toBe(true);
    expect(await h.stores.segments.markBroadcastUse(CLIENT, 2, 6)).toBe(true);
    expect(await h.stores.segments.markBroadcastUse(CLIENT, 99, 7)).toBe(false);
    h.broadcastStatuses.set(3, 'sending').set(4, 'paused').set(5, 'sent').set(6, 'scheduled');

    // Act
    const held = await refusal(deleteSegment(h.deps, CLIENT, 1));
    h.broadcastStatuses.set(3, 'sent').set(4, 'cancelled');
    // A schedule that lands between a delete's read and its write moves the count the write is conditioned on.
    const read = await h.stores.segments.readForWrite(CLIENT, 1);
    await h.stores.segments.markBroadcastUse(CLIENT, 1, 8);
    const raced = await h.stores.segments.delete(
      read.segment!,
      read.segment!.version,
      indexWrite(read.index, 1),
      read.broadcastUses!.n,
    );
    h.broadcastStatuses.set(8, 'cancelled');
    const deleted = await deleteSegment(h.deps, CLIENT, 1);

    // Assess
    expect(held).toMatchObject({
      status: 409,
      items: [
        {
          condition: 'state',
          key: 'id',
          error: 'Broadcasts 3, 4 send to this segment: cancel them, or wait until they are sent, then delete it',
        },
      ],
    });
    expect(read.broadcastUses).toEqual({ broadcastIds: [3, 4, 5], n: 3 });
    expect(raced).toBe('stale');
    expect(deleted).toEqual({ id: 1, deleted: true });
    expect(await refusal(deleteSegment(h.deps, CLIENT, 2))).toMatchObject({ status: 409 });
  });

  it('purges a deleted segment: every member leaves it (entries and state markers), page by page over 16 shards', async () => {
    // Prepare: 2,000 members, 125 a member shard: two purge pages each.
    const h = harness(2_000, 1);
    await createSegment(h.deps, CLIENT, { name: 'Everyone tagged', definition: tagged('vip') });
    await createSegment(h.deps, CLIENT, { name: 'Also', definition: tagged('vip') });
    await h.drain();
    const before = h.stores.membership.membersOf(CLIENT, 1).length;

    // Act
    await deleteSegment(h.deps, CLIENT, 1);
    const purges = h.queue.sent.filter((m) => m.kind === 'purge').length;
    const ran = await h.drain();

    // Assess
    expect(before).toBe(2_000);
    expect(purges).toBe(16);
    expect(ran).toBe(32);
    expect(h.stores.membership.membersOf(CLIENT, 1)).toEqual([]);
    expect(h.stores.membership.membersOf(CLIENT, 2)).toHaveLength(2_000);
    const states = [...h.stores.membership.data.segmentStates.values()];
    expect(states.filter((st) => st.members[1] !== undefined)).toEqual([]);
  });

  it('sets ready from the sweep when the last shard finished but the head was not set (a crash between the two)', async () => {
    const h = harness(40, 2);
    await createSegment(h.deps, CLIENT, { name: 'Half', definition: tagged('vip') });
    const finish = h.stores.segments.finishBackfill.bind(h.stores.segments);
    let crashes = 1;
    h.stores.segments.finishBackfill = async (...args) => {
      if (crashes-- > 0) throw new Error('injected: the process died before the head was written');
      return finish(...args);
    };

    // Act: the last shard to finish crashes before the head; its redelivery finds its progress done and stops.
    let failed = 0;
    while (h.queue.sent.length > 0) {
      const message = h.queue.sent.shift()!;
      if (message.kind !== 'backfill') continue;
      await backfillSegmentPage(h.deps, message).catch(() => {
        failed += 1;
        // SQS delivers it again: its progress is done, so it stops there.
        return backfillSegmentPage(h.deps, message);
      });
    }
    const stuck = await getSegment(h.deps, CLIENT, 1);
    h.advance(3 * 60_000);
    const restart = await restartStaleBackfills(h.deps);

    // Assess
    expect(failed).toBe(1);
    expect(stuck).toMatchObject({ status: 'building', count: 20, backfill: { shards_done: 8 } });
    expect(restart.restarted).toBe(0);
    expect(await getSegment(h.deps, CLIENT, 1)).toMatchObject({ status: 'ready', count: 20 });
  });
});
