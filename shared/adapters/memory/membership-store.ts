import type {
  DueContact,
  MembershipRead,
  MembershipStore,
  MembershipTransition,
} from '../../domain/segments/membership-store.js';
import { engagementSourcesOf } from '../../domain/segments/definition/specs.js';
import { keys } from '../dynamo/keys.js';
import { clientKey, copy, MemoryEngineData, stored as stored_, type MemoryAggregates } from './engine-data.js';

/**
 * MembershipStore in memory, with the DynamoDB adapter's contract: each transition is written whole or not at all,
 * conditioned on the state's `sv` as read; the due index is the states' `next_eval_at`. `onWrite` runs after each
 * transition is written (tests crash a worker there).
 */
export class MemoryMembershipStore implements MembershipStore {
  /** Runs after each transition is written, before the next (a test's injected crash). */
  onWrite?: (transition: MembershipTransition) => void;
  /** Runs after a read, before its answer is used (a test lets other writers in between a read and its commit). */
  onRead?: () => Promise<void>;

  constructor(
    private readonly aggregates: Pick<MemoryAggregates, 'contacts' | 'topics' | 'journeys'>,
    readonly data: MemoryEngineData = new MemoryEngineData(),
  ) {}

  async index(clientId: number) {
    const index = this.data.segmentIndexes.get(clientId);
    return index && copy(index);
  }

  async read(
    clientId: number,
    contactIds: readonly number[],
    options: { sources?: readonly string[] } = {},
  ): Promise<MembershipRead> {
    const index = this.data.segmentIndexes.get(clientId);
    const sources = [
      ...new Set([
        ...engagementSourcesOf((index?.segments ?? []).map((s) => s.definition)),
        ...(options.sources ?? []),
      ]),
    ];
    const topics = this.aggregates.topics && (await this.aggregates.topics.load(clientId));
    const journeyIndex = this.aggregates.journeys?.indexOf(clientId);
    const read: MembershipRead = {
      ...(index ? { index: copy(index) } : {}),
      ...(journeyIndex ? { journeyIndex: copy(journeyIndex) } : {}),
      ...(topics && topics.version > 0 ? { topics: copy(topics) } : {}),
      contacts: contactIds.map((id) => {
        const key = clientKey(clientId, id);
        const contact = this.aggregates.contacts.contacts.get(key);
        const counters = this.data.contactCounters.get(key);
        const state = this.data.segmentStates.get(key);
        const engagement = sources.length > 0 ? this.data.contactEngagement.read(clientId, id, sources) : undefined;
        return {
          contactId: id,
          ...(contact ? { contact: copy(contact) } : {}),
          ...(counters ? { counters: copy(counters) } : {}),
          ...(engagement ? { engagement } : {}),
          ...(state ? { state: copy(state) } : {}),
        };
      }),
    };
    const hook = this.onRead;
    if (hook) {
      this.onRead = undefined;
      await hook();
    }
    return read;
  }

  async commit(transitions: readonly MembershipTransition[]): Promise<{ conflicts: number[] }> {
    const conflicts: number[] = [];
    for (const t of transitions) {
      const key = clientKey(t.clientId, t.contactId);
      const stored = this.data.segmentStates.get(key);
      if (stored?.sv !== t.svRead) {
        conflicts.push(t.contactId);
        continue;
      }
      const events = t.events ?? [];
      // An event id already taken refuses the whole transition, as the table's transaction does.
      if (events.some((e) => this.data.events.has(clientKey(e.client_id, e.id))))
        throw new Error('an event id of the transition is taken');
      for (const event of events) {
        const k = clientKey(event.client_id, event.id);
        this.data.events.set(k, stored_(event));
        this.data.queuedIndex.add(k);
      }
      if (t.state === null) this.data.segmentStates.delete(key);
      else this.data.segmentStates.set(key, copy(t.state));
      const zone = t.state?.z;
      for (const id of t.entered)
        this.members(t.clientId, id).set(t.contactId, { ...(zone !== undefined ? { z: zone } : {}), at: t.at });
      for (const id of t.rezoned) {
        const entry = this.members(t.clientId, id).get(t.contactId);
        this.members(t.clientId, id).set(t.contactId, {
          ...(zone !== undefined ? { z: zone } : {}),
          at: entry?.at ?? t.at,
        });
      }
      for (const id of t.left) this.members(t.clientId, id).delete(t.contactId);
      this.onWrite?.(t);
    }
    return { conflicts };
  }

  async due(
    shard: number,
    until: string,
    limit: number,
    cursor?: string,
  ): Promise<{ contacts: DueContact[]; cursor?: string }> {
    const entries = [...this.data.segmentStates.entries()]
      .flatMap(([key, state]) => {
        const [client, contact] = key.split('\u0000').map(Number) as [number, number];
        if (state.next_eval_at === undefined || contact % keys.segmentDueShards !== shard) return [];
        const sk = keys.segmentDueEntry(client, contact, state.next_eval_at).gsi3sk;
        return [{ sk, entry: { client_id: client, contact_id: contact, due_at: state.next_eval_at } }];
      })
      .filter(({ sk, entry }) => entry.due_at <= until && (cursor === undefined || sk > cursor))
      .sort((a, b) => (a.sk < b.sk ? -1 : 1));
    const page = entries.slice(0, limit);
    return {
      contacts: page.map((e) => e.entry),
      ...(entries.length > limit ? { cursor: page[page.length - 1]!.sk } : {}),
    };
  }

  /** The members of one segment (contact ids, ascending). */
  membersOf(clientId: number, segmentId: number): number[] {
    return [...this.members(clientId, segmentId).keys()].sort((a, b) => a - b);
  }

  private members(clientId: number, segmentId: number) {
    const key = `${clientId}\u0000${segmentId}`;
    let entries = this.data.segmentMembers.get(key);
    if (!entries) {
      entries = new Map();
      this.data.segmentMembers.set(key, entries);
    }
    return entries;
  }
}
