import { describe, expect, it } from 'vitest';
import { MemoryContactStore } from '../../../../shared/adapters/memory/contact-store.js';
import { clientKey, MemoryEngineData } from '../../../../shared/adapters/memory/engine-data.js';
import { MemoryMembershipStore } from '../../../../shared/adapters/memory/membership-store.js';
import { compileIndex } from '../../../../shared/domain/segments/definition/specs.js';
import type { CompiledSegment } from '../../../../shared/domain/segments/definition/types.js';
import { evaluateContacts } from '../../../../shared/domain/segments/evaluate-contacts.js';
import type { MembershipStore, SegmentIndex } from '../../../../shared/domain/segments/membership-store.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const CLIENT = 7;
const clock = { now: () => new Date('2026-06-01T12:00:00.000Z') };
const tagged = (id: number, version: number, tag: string): CompiledSegment => ({
  id,
  version,
  definition: { match: 'all', groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has', tag }] }] },
});
const indexOf = (version: number, ...segments: CompiledSegment[]): SegmentIndex => ({
  version,
  ...compileIndex(segments),
});

/** A store whose cached index is `cached` while the table holds `current` (the configuration cache's lag). */
function lagging(cached: SegmentIndex) {
  const contacts = new MemoryContactStore();
  const data = new MemoryEngineData();
  const real = new MemoryMembershipStore({ contacts }, data);
  const fresh: boolean[] = [];
  const membership: MembershipStore = {
    index: (c) => real.index(c),
    due: (...args) => real.due(...args),
    commit: (t) => real.commit(t),
    read: async (c, ids, options) => {
      fresh.push(options?.freshIndex === true);
      const read = await real.read(c, ids);
      return options?.freshIndex ? read : { ...read, index: cached };
    },
  };
  contacts.contacts.set(clientKey(CLIENT, 1), contactRecord({ id: 1, client_id: CLIENT, tags: ['new'] }));
  return { data, real, membership, fresh };
}

describe('evaluateContacts', () => {
  it('reads the index strongly when a cached copy lags a membership a backfill wrote, and keeps it', async () => {
    // Prepare: segment 1 is now `tag new` (version 2) and the contact entered under it; the cache still has version 1.
    const h = lagging(indexOf(1, tagged(1, 1, 'old')));
    h.data.segmentIndexes.set(CLIENT, indexOf(2, tagged(1, 2, 'new')));
    await h.real.commit([
      {
        clientId: CLIENT,
        contactId: 1,
        svRead: undefined,
        state: { sv: 1, members: { 1: 2 } },
        entered: [1],
        rezoned: [],
        left: [],
        at: clock.now().toISOString(),
      },
    ]);

    // Act
    const result = await evaluateContacts({ membership: h.membership, clock }, CLIENT, [1]);

    // Assess
    expect(h.fresh).toEqual([false, true]);
    expect(result).toMatchObject({ left: 0, written: 0 });
    expect(h.real.membersOf(CLIENT, 1)).toEqual([1]);
  });

  it('takes a contact out of a segment the index no longer has', async () => {
    // Prepare: the contact was in segment 2, since deleted.
    const h = lagging(indexOf(3, tagged(1, 1, 'new')));
    h.data.segmentIndexes.set(CLIENT, indexOf(3, tagged(1, 1, 'new')));
    await h.real.commit([
      {
        clientId: CLIENT,
        contactId: 1,
        svRead: undefined,
        state: { sv: 1, members: { 2: 1 } },
        entered: [2],
        rezoned: [],
        left: [],
        at: clock.now().toISOString(),
      },
    ]);

    // Act
    const result = await evaluateContacts({ membership: h.membership, clock }, CLIENT, [1]);

    // Assess
    expect(result).toMatchObject({ entered: 1, left: 1, written: 1 });
    expect(h.real.membersOf(CLIENT, 2)).toEqual([]);
    expect(h.real.membersOf(CLIENT, 1)).toEqual([1]);
  });
});
