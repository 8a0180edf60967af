import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { eventProcessingDeps } from '../../../../shared/domain/events/create-event.js';
import { processEvent } from '../../../../shared/domain/events/process-event.js';
import type { ProcessingStore } from '../../../../shared/domain/events/processing-store.js';
import { runMarkersOf } from '../../../../shared/domain/runs/match-waits.js';
import { JOURNEY_LIMITS } from '../../../../shared/public/journey-rules.js';
import { CLIENT_ID, engineHarness, type EngineHarness } from '../engine/engine-harness.js';
import { cartJourney, publishIndex } from './journey-fixtures.js';
import { definitionOf, indexedOf, indexOf, RUN_CLIENT, runRecord, versionOf } from '../runs/run-fixtures.js';
import { runWorld } from '../runs/run-world.js';

const LIMIT = JOURNEY_LIMITS.runsPerContact;
const attributesOf = (h: EngineHarness, contactId: number) =>
  h.stores.contacts.contacts.get(clientKey(CLIENT_ID, contactId)) as unknown as Record<string, unknown>;

/** A contact already in `runs` runs of another journey: its markers, and its counter unless `counter` is false. */
async function contactInRuns(h: EngineHarness, runs: number, counter = true) {
  const ann = await h.contact();
  const stored = attributesOf(h, ann.id);
  for (let i = 0; i < runs; i += 1) stored[`run_${900 + i}`] = { j: 1001, q: 1 };
  if (counter) stored['runs_n'] = runs;
  return ann;
}

/**
 * Processes these events at the same instant: each reads the contact before any of them commits (the first read of
 * each waits for the others'), as two Lambda invocations taking events of one contact together would.
 */
async function processTogether(h: EngineHarness, eventIds: readonly number[]) {
  const real = h.stores.processing;
  let firstReads = 0;
  let release!: () => void;
  const allRead = new Promise<void>((resolve) => {
    release = resolve;
  });
  const processing: ProcessingStore = {
    findContactId: (c, ref) => real.findContactId(c, ref),
    loadContext: async (c, id, w) => {
      const context = await real.loadContext(c, id, w);
      if (firstReads < eventIds.length) {
        firstReads += 1;
        if (firstReads === eventIds.length) release();
        await allRead;
      }
      return context;
    },
    commit: (commit) => real.commit(commit),
  };
  const deps = eventProcessingDeps({ ...h.stores, queue: h.queue, scheduler: h.scheduler, processing });
  return Promise.all(eventIds.map((id) => processEvent(deps, CLIENT_ID, id)));
}

const entered = (processed: Awaited<ReturnType<typeof processTogether>>) =>
  processed.flatMap((p) => p?.journey_entries ?? []).filter((e) => e.outcome === 'entered');

describe('the runs-per-contact limit under concurrency', () => {
  it('lets two events of a contact one run short of the limit, processed at once, start one run between them', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await contactInRuns(h, LIMIT - 1);
    const a = await h.ingest({ type: 'cart_abandoned', email: ann.email, cart_id: 'A-1' });
    const b = await h.ingest({ type: 'cart_abandoned', email: ann.email, cart_id: 'B-1' });

    // Act
    const processed = await processTogether(h, [a.id, b.id]);

    // Assess
    expect(entered(processed)).toHaveLength(1);
    expect(
      processed
        .flatMap((p) => p!.journey_entries ?? [])
        .map((e) => e.outcome)
        .sort(),
    ).toEqual(['entered', 'runs_limit']);
    expect(runMarkersOf(attributesOf(h, ann.id) as never)).toHaveLength(LIMIT);
    expect(attributesOf(h, ann.id)['runs_n']).toBe(LIMIT);
  });

  it('holds for a contact whose runs started before the counter existed: the first commit creates it', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await contactInRuns(h, LIMIT - 1, false);
    const a = await h.ingest({ type: 'cart_abandoned', email: ann.email, cart_id: 'A-1' });
    const b = await h.ingest({ type: 'cart_abandoned', email: ann.email, cart_id: 'B-1' });

    // Act
    const processed = await processTogether(h, [a.id, b.id]);

    // Assess
    expect(entered(processed)).toHaveLength(1);
    expect(attributesOf(h, ann.id)['runs_n']).toBe(LIMIT);
  });

  it('counts a run out when an exit event ends it, so the contact may enter again', async () => {
    // Prepare: one run short of the limit, then a run of the cart journey.
    const h = await engineHarness();
    publishIndex(h, cartJourney({ trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } } }));
    const ann = await contactInRuns(h, LIMIT - 1);
    const first = await h.process((await h.ingest({ type: 'cart_abandoned', email: ann.email, cart_id: 'A-1' })).id);
    expect(first!.journey_entries).toEqual([expect.objectContaining({ outcome: 'entered' })]);
    const full = await h.process((await h.ingest({ type: 'cart_abandoned', email: ann.email, cart_id: 'B-1' })).id);
    expect(full!.journey_entries).toEqual([expect.objectContaining({ outcome: 'runs_limit' })]);

    // Act: the exit event ends the cart run
    await h.process((await h.ingest({ type: 'account_closed', email: ann.email })).id);
    const afterExit = attributesOf(h, ann.id)['runs_n'];
    const again = await h.process((await h.ingest({ type: 'cart_abandoned', email: ann.email, cart_id: 'C-1' })).id);

    // Assess
    expect(afterExit).toBe(LIMIT - 1);
    expect(again!.journey_entries).toEqual([expect.objectContaining({ outcome: 'entered' })]);
    expect(attributesOf(h, ann.id)['runs_n']).toBe(LIMIT);
  });

  it('never lets events processed at once take a contact past the limit, and keeps the counter equal to its markers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: LIMIT }), fc.integer({ min: 1, max: 5 }), async (runs, events) => {
        // Prepare
        const h = await engineHarness();
        publishIndex(h, cartJourney());
        const ann = await contactInRuns(h, runs);
        const ids: number[] = [];
        for (let i = 0; i < events; i += 1)
          ids.push((await h.ingest({ type: 'cart_abandoned', email: ann.email, cart_id: `C-${i}` })).id);

        // Act
        const processed = await processTogether(h, ids);

        // Assess
        const markers = runMarkersOf(attributesOf(h, ann.id) as never).length;
        expect(markers).toBe(Math.min(LIMIT, runs + events));
        expect(entered(processed)).toHaveLength(markers - runs);
        expect(attributesOf(h, ann.id)['runs_n']).toBe(markers);
      }),
      { numRuns: 30 },
    );
  });

  it('counts a run out when its last step ends it (advance-runs), never below zero for a contact with no counter', async () => {
    // Prepare: two runs of a one-step journey (exit), the contact counting them, and a third with no counter.
    const world = await runWorld();
    await world.contact();
    const definition = definitionOf([{ id: 'out', type: 'exit' }]);
    world.journeys.publish(versionOf(definition, 1));
    world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(definition)));
    for (const id of [4242, 4243]) {
      const run = runRecord({ id, step_id: 'out' });
      world.start(run);
      world.lock(run);
    }
    world.stored(100)!['runs_n'] = 2;

    // Act
    await world.advance({ client_id: RUN_CLIENT, run_id: 4242, seq: 1, contact_id: 100 });
    const afterOne = world.stored(100)!['runs_n'];
    delete world.stored(100)!['runs_n'];
    await world.advance({ client_id: RUN_CLIENT, run_id: 4243, seq: 1, contact_id: 100 });

    // Assess
    expect(world.run(4242)).toMatchObject({ status: 'exited' });
    expect(afterOne).toBe(1);
    expect(world.stored(100)!['runs_n']).toBe(0);
    expect(world.stored(100)).not.toHaveProperty('run_4243');
  });
});
