import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { eventProcessingDeps } from '../../../../shared/domain/events/create-event.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import { processEvent } from '../../../../shared/domain/events/process-event.js';
import type { ProcessingStore } from '../../../../shared/domain/events/processing-store.js';
import type { JourneyDefinition } from '../../../../shared/domain/journeys/definition/types.js';
import type { JourneyVersionRecord } from '../../../../shared/domain/journeys/journey-records.js';
import { advanceRun } from '../../../../shared/domain/runs/advance-run.js';
import type { RunRecord } from '../../../../shared/domain/runs/run-record.js';
import type { RunStore } from '../../../../shared/domain/runs/run-store.js';
import type { RunMessage } from '../../../../shared/platform.js';
import { CLIENT_ID, engineHarness, NOW } from '../engine/engine-harness.js';

const TIMEOUT_MINUTES = 60;

/**
 * The cart journey reduced to the race: wait for checkout_completed of the same cart; the event ends the run, the
 * timeout leads to a short wait first (a run still in flight after its timeout, which a late event must not move).
 */
const definition: JourneyDefinition = {
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: TIMEOUT_MINUTES,
      on_event: null,
      on_timeout: 'cool_down',
    },
    { id: 'cool_down', type: 'wait', minutes: 5, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};
const version: JourneyVersionRecord = {
  client_id: CLIENT_ID,
  journey_id: 1000,
  version: 1,
  definition,
  moves: {},
  published_at: NOW,
};

/** One thing that may happen while the run waits, in any order and any number of times. */
const Step = fc.oneof(
  /**
   * The client sends checkout_completed for the cart (a new event each time: duplicates of the awaited event);
   * `racing`: a journey message is delivered between the event's read of the contact and its commit.
   */
  fc.record({ kind: fc.constant('event' as const), racing: fc.boolean(), pick: fc.nat() }),
  /** The events queue delivers an event again (after a crash, or twice). */
  fc.record({ kind: fc.constant('redeliver_event' as const), pick: fc.nat() }),
  /** Time reaches the timeout. */
  fc.constant({ kind: 'tick' as const }),
  /**
   * The journey queue delivers a message sent so far (the timeout's, the resumption's), again or for the first time;
   * `racing`: a new checkout_completed is processed between the run's read and its transition.
   */
  fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat(), racing: fc.boolean() }),
  /** The next processing commit, or the next run transition, is written and then its worker dies. */
  fc.constant({ kind: 'crash_event' as const }),
  fc.constant({ kind: 'crash_run' as const }),
);
type Step = typeof Step extends fc.Arbitrary<infer T> ? T : never;

async function world() {
  const h = await engineHarness();
  Object.assign(h.stores.journeys, {
    indexOf: () => ({
      version: 1,
      journeys: [
        {
          id: 1000,
          name: 'Cart',
          status: 'live',
          live_version: 1,
          trigger: definition.trigger,
          entry: definition.entry,
          settings: definition.settings,
          awaited_events: ['checkout_completed'],
          templates_in_use: [],
        },
      ],
    }),
    versionOf: (_c: number, j: number, v: number) => (j === 1000 && v === 1 ? version : undefined),
  });
  const crash = { event: false, run: false };
  // Work done by the other side between one side's read and its write (then forgotten: it happens once).
  const between: { event?: () => Promise<void>; run?: () => Promise<void> } = {};
  const once = async (key: 'event' | 'run') => {
    const work = between[key];
    delete between[key];
    if (work) await work();
  };
  const lost = () => Object.assign(new Error('worker lost after the write'), { code: 'ECONNRESET' });
  const real = h.stores.processing;
  const processing: ProcessingStore = {
    findContactId: (c, ref) => real.findContactId(c, ref),
    loadContext: async (c, id, w) => {
      const context = await real.loadContext(c, id, w);
      await once('event');
      return context;
    },
    commit: async (commit) => {
      const outcome = await real.commit(commit);
      if (crash.event && outcome === 'committed') {
        crash.event = false;
        throw lost();
      }
      return outcome;
    },
  };
  const runs: RunStore = Object.assign(Object.create(h.stores.runs) as RunStore, {
    read: async (...args: Parameters<RunStore['read']>) => {
      const reads = await h.stores.runs.read(...args);
      await once('run');
      return reads;
    },
    transition: async (t: Parameters<RunStore['transition']>[0]) => {
      const outcome = await h.stores.runs.transition(t);
      if (crash.run && outcome === 'committed') {
        crash.run = false;
        throw lost();
      }
      return outcome;
    },
  });
  const processDeps = eventProcessingDeps({ ...h.stores, queue: h.queue, scheduler: h.scheduler, processing });
  const advanceDeps = { runs, contacts: h.stores.contacts, clock: h.clock, queue: h.queue, scheduler: h.scheduler };
  const ann = await h.contact();
  return { h, crash, between, processDeps, advanceDeps, ann };
}

type World = Awaited<ReturnType<typeof world>>;

/** Every journey message sent so far, by SQS or the Scheduler, in order. */
const messagesOf = (w: World): RunMessage[] => [
  ...w.h.queue.sent.filter((s) => s.queue === 'journey').map((s) => s.message as RunMessage),
  ...w.h.scheduler.scheduled.filter((s) => s.queue === 'journey').map((s) => s.message as RunMessage),
];

/** A worker's attempt: a crash is the message left on its queue (SQS delivers it again). */
const attempt = async (work: () => Promise<unknown>) => {
  try {
    await work();
  } catch (error) {
    if ((error as { code?: string }).code !== 'ECONNRESET') throw error;
  }
};

async function play(w: World, steps: readonly Step[]) {
  const { h } = w;
  // The run enters: the trigger event, then its first transition (into the wait, seq 2, marker on the contact).
  const trigger = await h.ingest({ type: 'cart_abandoned', email: w.ann.email, cart_id: 'A-1' });
  const entered = (await processEvent(w.processDeps, CLIENT_ID, trigger.id))!;
  const runId = entered.journey_entries![0]!.run_id!;
  await advanceRun(w.advanceDeps, messagesOf(w)[0]!);
  expect(h.stores.processing.data.runs.get(clientKey(CLIENT_ID, runId))).toMatchObject({ status: 'waiting', seq: 2 });

  const events: number[] = [];
  const checkout = async () => {
    const event = await h.ingest({ type: 'checkout_completed', email: w.ann.email, cart_id: 'A-1' });
    events.push(event.id);
    await attempt(() => processEvent(w.processDeps, CLIENT_ID, event.id));
  };
  const deliver = async (pick: number) => {
    const messages = messagesOf(w);
    await attempt(() => advanceRun(w.advanceDeps, messages[pick % messages.length]!));
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'event':
        if (step.racing) w.between.event = () => deliver(step.pick);
        await checkout();
        break;
      case 'redeliver_event':
        if (events.length > 0) {
          const id = events[step.pick % events.length]!;
          await attempt(() => processEvent(w.processDeps, CLIENT_ID, id));
        }
        break;
      case 'tick':
        h.clock.advance(TIMEOUT_MINUTES * 60_000);
        break;
      case 'deliver':
        if (step.racing) w.between.run = checkout;
        await deliver(step.pick);
        break;
      case 'crash_event':
        w.crash.event = true;
        break;
      case 'crash_run':
        w.crash.run = true;
        break;
    }
  }

  // Then every queue drains: events still queued are delivered again, time passes the timeout, every message is
  // delivered, and the stuck-run sweep sends the run its current seq (a crash between a write and its dispatch).
  w.crash.event = false;
  w.crash.run = false;
  delete w.between.event;
  delete w.between.run;
  for (let round = 0; round < 4; round += 1) {
    h.clock.advance(TIMEOUT_MINUTES * 60_000);
    for (const id of events) await processEvent(w.processDeps, CLIENT_ID, id);
    for (const message of messagesOf(w)) await advanceRun(w.advanceDeps, message);
    const run = h.stores.processing.data.runs.get(clientKey(CLIENT_ID, runId))!;
    await advanceRun(w.advanceDeps, { client_id: CLIENT_ID, run_id: runId, seq: run.seq, contact_id: w.ann.id });
  }
  const stored = await Promise.all(events.map((id) => h.stores.events.get(CLIENT_ID, id)));
  return {
    run: h.stores.processing.data.runs.get(clientKey(CLIENT_ID, runId))!,
    events: stored as EventRecord[],
    contact: (await h.storedContact(w.ann.id)) as unknown as Record<string, unknown>,
  };
}

const viaOf = (run: RunRecord) => run.path.filter((p) => p.step === 'wait_checkout').map((p) => p.via);

describe('wait_for_event: the awaited event and the timeout race', () => {
  it('takes exactly one of on_event and on_timeout, whatever the order, duplicates and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(Step, { maxLength: 14 }), async (steps) => {
        // Prepare
        const w = await world();

        // Act
        const { run, events, contact } = await play(w, steps);

        // Assess: one edge, the one the event records say; the run ended and left no marker behind.
        const via = viaOf(run);
        expect(run.status).toBe('completed');
        expect(via).toHaveLength(1);
        const resumedBy = events.filter((e) => (e.resumed_run_ids ?? []).includes(run.id));
        if (via[0] === 'on_event') {
          expect(resumedBy).toHaveLength(1);
        } else {
          expect(via).toEqual(['on_timeout']);
          expect(resumedBy).toEqual([]);
        }
        expect(Object.keys(contact).filter((k) => /^(wait|run)_\d+$/.test(k))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['the event before the timeout is due', ['event', 'tick', 'deliver'], 'on_event'],
    ['the timeout delivered before the event', ['tick', 'deliver', 'event'], 'on_timeout'],
    ['the event after the timeout is due, before its message', ['tick', 'event', 'deliver'], 'on_event'],
  ] as const)('%s takes %s', async (_, kinds, expected) => {
    // Prepare
    const w = await world();

    // Act: `deliver` picks the last message sent (the timeout's schedule).
    const steps = kinds.map((kind) => ({ kind, pick: 1, racing: false })) as Step[];
    const { run } = await play(w, steps);

    // Assess
    expect(viaOf(run)).toEqual([expected]);
  });
});

describe('wait_for_event: one side acts between the other side’s read and its write', () => {
  it('the timeout moving the run between the event’s read and its commit: the timeout wins, the event commits without it', async () => {
    // Prepare: time is past the timeout; the timeout's message is delivered while the event is being processed.
    const w = await world();
    const steps: Step[] = [{ kind: 'tick' }, { kind: 'event', racing: true, pick: 1 }];

    // Act
    const { run, events } = await play(w, steps);

    // Assess
    expect(viaOf(run)).toEqual(['on_timeout']);
    expect(events[0]).toMatchObject({ queue_status: 'processed' });
    expect(events[0]).not.toHaveProperty('resumed_run_ids');
  });

  it('the event resuming the run between the timeout’s read and its transition: the event wins, the timeout is stale', async () => {
    // Prepare
    const w = await world();
    const steps: Step[] = [{ kind: 'tick' }, { kind: 'deliver', pick: 1, racing: true }];

    // Act
    const { run, events } = await play(w, steps);

    // Assess
    expect(viaOf(run)).toEqual(['on_event']);
    expect(events[0]!.resumed_run_ids).toEqual([run.id]);
  });
});
