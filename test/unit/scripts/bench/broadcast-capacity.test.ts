import { describe, expect, it } from 'vitest';
import {
  broadcastCapacity,
  capacityTable,
  duration,
  NEW_TABLE_WRU,
  PAGE_SECONDS,
  SNAPSHOT_WRU_PER_RECIPIENT,
} from '../../../../scripts/bench/broadcast-capacity.js';

const million = { contacts: 1_000_000, plan: 'scale', audience: 'contacts' } as const;

describe('broadcastCapacity (a large broadcast on AWS)', () => {
  it.each([
    [14, 11.2, 'SES rate × broadcast share'],
    [100, 80, 'SES rate × broadcast share'],
    [1000, 100, 'plan broadcast rate'],
  ] as const)('at %d e-mails/s of SES rate sends at %d/s, bound by %s', (sesRate, rate, limit) => {
    // Act
    const c = broadcastCapacity({ ...million, sesRate });
    // Assess
    expect(c.sendRate).toBeCloseTo(rate, 6);
    expect(c.sendLimit).toBe(limit);
    expect(c.sendSeconds).toBeCloseTo(1_000_000 / rate, 3);
    expect(c.totalSeconds).toBeCloseTo(c.snapshotSeconds + c.sendSeconds, 6);
    // The sender mapping never binds: its ceiling is at least the rate it is sized for.
    expect(c.senderCeiling).toBeGreaterThanOrEqual(Math.min(sesRate, 13.3));
  });

  it('snapshots the contacts over 8 chains of 98-recipient pages; a segment over its 16 member shards', () => {
    // Act
    const contacts = broadcastCapacity({ ...million, sesRate: 100 });
    const segment = broadcastCapacity({ ...million, sesRate: 100, audience: 'segment' });
    // Assess
    expect(contacts.chains).toBe(8);
    expect(contacts.pagesPerChain).toBe(Math.ceil(1_000_000 / 8 / 98));
    expect(contacts.snapshotSeconds).toBeCloseTo(contacts.pagesPerChain * PAGE_SECONDS, 6);
    expect(contacts.snapshotLimit).toBe('page chains');
    expect(segment.chains).toBe(16);
    expect(segment.snapshotSeconds).toBeLessThan(contacts.snapshotSeconds);
  });

  it("a new on-demand table's write throughput holds the snapshot back, not the chains", () => {
    // Act
    const c = broadcastCapacity({ ...million, sesRate: 100, newTable: true });
    // Assess
    expect(c.snapshotLimit).toBe('table throughput');
    expect(c.snapshotRate).toBe(NEW_TABLE_WRU / SNAPSHOT_WRU_PER_RECIPIENT);
    expect(c.snapshotSeconds).toBeCloseTo(1_000_000 / c.snapshotRate, 6);
  });

  it('keeps every recipient-list and due partition within half a key while the snapshot writes', () => {
    // Act
    const c = broadcastCapacity({ ...million, sesRate: 1000, audience: 'segment' });
    // Assess
    expect(c.duePartitions).toBe(16);
    expect(c.duePartitionWru).toBeLessThanOrEqual(500);
    expect(c.listPartitionWru).toBeLessThanOrEqual(500);
  });

  it('a free plan sends at its own rate whatever the account allows', () => {
    const c = broadcastCapacity({ contacts: 1000, sesRate: 1000, plan: 'free', audience: 'contacts' });
    expect(c.sendRate).toBe(1);
    expect(c.sendLimit).toBe('plan broadcast rate');
  });
});

describe('duration and the table', () => {
  it.each([
    [42, '42 s'],
    [580, '9 min 40 s'],
    [12_500, '3 h 28 min'],
  ])('%d s reads %s', (seconds, text) => {
    expect(duration(seconds)).toBe(text);
  });

  it('has one row per SES rate', () => {
    const table = capacityTable([14, 100, 1000]).split('\n');
    expect(table).toHaveLength(5);
    expect(table[4]).toContain('plan broadcast rate');
  });
});
