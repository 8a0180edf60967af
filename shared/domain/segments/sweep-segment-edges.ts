import type { Clock, Queue } from '../../platform.js';
import type { DueContact, MembershipStore } from './membership-store.js';
import { CONTACTS_PER_SEGMENTS_MESSAGE } from './segments-message.js';

/** The due index's shards (keys.segmentDueShards), read in one parallel wave. */
export const SEGMENT_DUE_SHARDS = 8;

export interface SweepSegmentEdgesDeps {
  membership: Pick<MembershipStore, 'due'>;
  queue: Queue;
  clock: Clock;
}

export interface SweepSegmentEdgesOptions {
  /** Contacts taken from one shard in one run, oldest edge first; the rest wait for the next run. */
  perShard?: number;
  /** Entries per Query. */
  pageSize?: number;
}

/**
 * The time-relative edges (every 15 minutes): each contact whose stored edge has come (a timestamp leaving a
 * `within_days` window, a counted event leaving its window) goes to the evaluator, which moves its membership and
 * its edge. The entry stays until that evaluation writes the state again, so a lost run or message is taken by the
 * next run. Requests: one Query per shard page (8 in parallel) + one SendMessageBatch per 10 messages of 25 contacts.
 */
export async function sweepSegmentEdges(
  deps: SweepSegmentEdgesDeps,
  options: SweepSegmentEdgesOptions = {},
): Promise<{ due: number; messages: number }> {
  const perShard = options.perShard ?? 2_000;
  const pageSize = options.pageSize ?? 500;
  const until = deps.clock.now().toISOString();
  const shards = await Promise.all(
    Array.from({ length: SEGMENT_DUE_SHARDS }, async (_, shard) => {
      const found: DueContact[] = [];
      let cursor: string | undefined;
      do {
        const page = await deps.membership.due(shard, until, Math.min(pageSize, perShard - found.length), cursor);
        found.push(...page.contacts);
        cursor = page.cursor;
      } while (cursor && found.length < perShard);
      return found;
    }),
  );
  const byClient = new Map<number, Set<number>>();
  for (const contact of shards.flat()) {
    const ids = byClient.get(contact.client_id) ?? new Set<number>();
    ids.add(contact.contact_id);
    byClient.set(contact.client_id, ids);
  }
  const messages = [...byClient].flatMap(([clientId, ids]) => {
    const list = [...ids];
    return Array.from({ length: Math.ceil(list.length / CONTACTS_PER_SEGMENTS_MESSAGE) }, (_, i) => ({
      message: {
        kind: 'contacts' as const,
        client_id: clientId,
        contact_ids: list.slice(i * CONTACTS_PER_SEGMENTS_MESSAGE, (i + 1) * CONTACTS_PER_SEGMENTS_MESSAGE),
      },
    }));
  });
  if (messages.length > 0) await deps.queue.sendBatch('segments', messages);
  return { due: shards.reduce((n, s) => n + s.length, 0), messages: messages.length };
}
