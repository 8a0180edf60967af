import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { eventProcessingDeps } from '../../../../shared/domain/events/create-event.js';
import { processEvent } from '../../../../shared/domain/events/process-event.js';
import type { ProcessingStore } from '../../../../shared/domain/events/processing-store.js';
import { compileIndex } from '../../../../shared/domain/segments/definition/specs.js';
import { CLIENT_ID, engineHarness, type EngineHarness } from '../engine/engine-harness.js';

/** A client whose one segment counts purchases of at least 100 (two within 7 days). */
function withCountingSegment(h: EngineHarness) {
  const index = compileIndex([
    {
      id: 1,
      version: 1,
      definition: {
        match: 'all',
        groups: [
          {
            match: 'all',
            conditions: [
              {
                on: 'event_count',
                event: 'purchase',
                conditions: [{ on: 'event', path: 'amount', op: 'gte', value: 100 }],
                op: 'at_least',
                count: 2,
                within_days: 7,
              },
            ],
          },
        ],
      },
    },
  ]);
  h.stores.processing.data.segmentIndexes.set(CLIENT_ID, { version: 1, ...index });
  return index.specs[0]!.id;
}

const countersOf = (h: EngineHarness, contactId: number) =>
  h.stores.processing.data.contactCounters.get(clientKey(CLIENT_ID, contactId));

/** Processes the events at once: each reads the contact and its counters before any commits. */
async function processTogether(h: EngineHarness, eventIds: readonly number[]) {
  const real = h.stores.processing;
  let reads = 0;
  let release!: () => void;
  const allRead = new Promise<void>((resolve) => {
    release = resolve;
  });
  const processing: ProcessingStore = {
    findContactId: (c, ref) => real.findContactId(c, ref),
    loadContext: async (c, id, w) => {
      const context = await real.loadContext(c, id, w);
      if (reads < eventIds.length) {
        reads += 1;
        if (reads === eventIds.length) release();
        await allRead;
      }
      return context;
    },
    commit: (commit) => real.commit(commit),
  };
  const deps = eventProcessingDeps({ ...h.stores, queue: h.queue, scheduler: h.scheduler, processing });
  return Promise.all(eventIds.map((id) => processEvent(deps, CLIENT_ID, id)));
}

describe('event counters kept in the processing commit', () => {
  it('counts two events of one contact processed at once twice (the second reads again)', async () => {
    // Prepare
    const h = await engineHarness();
    const spec = withCountingSegment(h);
    const ann = await h.contact();
    const a = await h.ingest({ type: 'purchase', email: ann.email, amount: 120, ts: '2026-01-15T08:00:00Z' });
    const b = await h.ingest({ type: 'purchase', email: ann.email, amount: 150, ts: '2026-01-15T09:00:00Z' });

    // Act
    const processed = await processTogether(h, [a.id, b.id]);

    // Assess
    expect(processed.map((p) => p?.queue_status)).toEqual(['processed', 'processed']);
    expect(countersOf(h, ann.id)).toEqual({
      ev_v: 2,
      recent: { [spec]: [Date.parse('2026-01-15T09:00:00Z') / 1000, Date.parse('2026-01-15T08:00:00Z') / 1000] },
      total: { [spec]: 2 },
    });
  });

  it('writes no counters for an event no segment counts, nor for a redelivered one', async () => {
    // Prepare
    const h = await engineHarness();
    withCountingSegment(h);
    const ann = await h.contact();
    const small = await h.ingest({ type: 'purchase', email: ann.email, amount: 5 });
    const big = await h.ingest({ type: 'purchase', email: ann.email, amount: 500 });
    const deps = eventProcessingDeps({ ...h.stores, queue: h.queue, scheduler: h.scheduler });

    // Act
    await processEvent(deps, CLIENT_ID, small.id);
    const afterSmall = countersOf(h, ann.id);
    await processEvent(deps, CLIENT_ID, big.id);
    await processEvent(deps, CLIENT_ID, big.id);

    // Assess
    expect(afterSmall).toBeUndefined();
    expect(countersOf(h, ann.id)?.ev_v).toBe(1);
  });
});
