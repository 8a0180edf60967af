import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { eventProcessingDeps } from '../../../../shared/domain/events/create-event.js';
import { processEvent } from '../../../../shared/domain/events/process-event.js';
import type { ProcessingStore } from '../../../../shared/domain/events/processing-store.js';
import { keyHashOf } from '../../../../shared/domain/runs/match-waits.js';
import { LOCK_GRACE_DAYS } from '../../../../shared/domain/runs/plan-entries.js';
import { EventView, toEventView } from '../../../../shared/domain/events/event-view.js';
import { CLIENT_ID, engineHarness, NOW, type EngineHarness } from '../engine/engine-harness.js';
import { cartJourney, publishIndex, seedWaitingRun } from './journey-fixtures.js';

const DAY_MS = 86_400_000;
const runsOf = (h: EngineHarness) => [...h.stores.processing.data.runs.values()];
const lockOf = (h: EngineHarness, contactId: number, cartId?: string, journeyId = 1000) =>
  h.stores.processing.data.runLocks.get(
    keys.runLock(CLIENT_ID, journeyId, contactId, cartId === undefined ? undefined : keyHashOf(cartId)).pk,
  );
const attributesOf = async (h: EngineHarness, contactId: number) =>
  (await h.storedContact(contactId)) as unknown as Record<string, unknown>;
const journeyMessages = (h: EngineHarness) => h.queue.sent.filter((s) => s.queue === 'journey');

async function cart(h: EngineHarness, email: string, cartId: string | undefined, type = 'cart_abandoned') {
  const event = await h.ingest({ type, email, ...(cartId !== undefined ? { cart_id: cartId } : {}) });
  return (await h.process(event.id))!;
}

describe('processEvent: entering journeys', () => {
  it('starts a run of a live journey its event triggers: the run, its lock, the contact marker, one message', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await h.contact();

    // Act
    const processed = await cart(h, ann.email, 'A-1');

    // Assess
    const [run] = runsOf(h);
    expect(runsOf(h)).toHaveLength(1);
    expect(run).toEqual({
      id: run!.id,
      client_id: CLIENT_ID,
      journey_id: 1000,
      version: 3,
      contact_id: ann.id,
      event_id: processed.id,
      key_hash: keyHashOf('A-1'),
      key_value: 'A-1',
      status: 'active',
      step_id: 'wait_checkout',
      seq: 1,
      step_entered_at: NOW,
      due_at: NOW,
      sends: {},
      branches: {},
      arms: {},
      path: [],
      event: { type: 'cart_abandoned', ts: NOW, payload: { type: 'cart_abandoned', email: ann.email, cart_id: 'A-1' } },
      created_at: NOW,
      updated_at: NOW,
    });
    expect(lockOf(h, ann.id, 'A-1')).toEqual({ run_id: run!.id, active: true, entered_at: NOW });
    expect((await attributesOf(h, ann.id))[`run_${run!.id}`]).toEqual({ j: 1000, q: 1, k: keyHashOf('A-1') });
    expect(processed.journey_entries).toEqual([{ journey_id: 1000, run_id: run!.id, outcome: 'entered' }]);
    expect(processed).not.toHaveProperty('resumed_run_ids');
    expect(journeyMessages(h)).toEqual([
      {
        queue: 'journey',
        message: { client_id: CLIENT_ID, run_id: run!.id, seq: 1, contact_id: ann.id, journey_id: 1000, version: 3 },
        options: { delaySeconds: 0 },
      },
    ]);
    expect(await h.stores.events.get(CLIENT_ID, processed.id)).toEqual(processed);
  });

  it('leaves an event of the 8 workflows as it was: no journey fields when the client has no journey', async () => {
    // Prepare
    const h = await engineHarness({ enabled_workflows: [1] });
    const ann = await h.contact();
    const event = await h.ingest({ type: 'signup', email: ann.email });

    // Act
    const processed = (await h.process(event.id))!;

    // Assess
    expect(Object.keys(processed)).not.toContain('journey_entries');
    expect(Object.keys(processed)).not.toContain('resumed_run_ids');
    expect(Object.keys(processed)).not.toContain('resumed_run_seqs');
    expect(journeyMessages(h)).toEqual([]);
  });

  it.each([
    ['a trigger key missing from the event', cartJourney(), undefined],
    [
      'trigger conditions that do not hold',
      cartJourney({
        trigger: {
          event: 'cart_abandoned',
          key: 'cart_id',
          conditions: [{ on: 'event', path: 'amount', op: 'gt', value: 100 }],
          reentry: { mode: 'once' },
        },
      }),
      'A-1',
    ],
  ])('records `conditions` and starts nothing for %s', async (_, journey, cartId) => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, journey);
    const ann = await h.contact();

    // Act
    const processed = await cart(h, ann.email, cartId);

    // Assess
    expect(processed.journey_entries).toEqual([{ journey_id: 1000, run_id: null, outcome: 'conditions' }]);
    expect(runsOf(h)).toEqual([]);
    expect(journeyMessages(h)).toEqual([]);
  });

  it('starts nothing for a paused journey, and nothing for another event type', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(
      h,
      cartJourney({ status: 'paused' }),
      cartJourney({ id: 1001, trigger: { event: 'other', reentry: { mode: 'always' } } }),
    );
    const ann = await h.contact();

    // Act
    const processed = await cart(h, ann.email, 'A-1');

    // Assess
    expect(processed).not.toHaveProperty('journey_entries');
    expect(runsOf(h)).toEqual([]);
  });

  it('refuses `runs_limit` when the contact is in as many runs as the limit allows', async () => {
    // Prepare: 20 runs in flight on the contact item.
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await h.contact();
    const stored = h.stores.contacts.contacts.get(clientKey(CLIENT_ID, ann.id)) as unknown as Record<string, unknown>;
    for (let i = 0; i < 20; i += 1) stored[`run_${900 + i}`] = { j: 1001, q: 1 };

    // Act
    const processed = await cart(h, ann.email, 'A-1');

    // Assess
    expect(processed.journey_entries).toEqual([{ journey_id: 1000, run_id: null, outcome: 'runs_limit' }]);
    expect(runsOf(h)).toEqual([]);
  });

  it('keeps one run in flight per (contact, key value): the same cart is `in_flight`, another cart enters', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, cartJourney({ trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } } }));
    const ann = await h.contact();
    const first = await cart(h, ann.email, 'A-1');

    // Act
    const again = await cart(h, ann.email, 'A-1');
    const other = await cart(h, ann.email, 'B-2');

    // Assess
    expect(again.journey_entries).toEqual([{ journey_id: 1000, run_id: null, outcome: 'in_flight' }]);
    expect(other.journey_entries).toEqual([{ journey_id: 1000, run_id: expect.any(Number), outcome: 'entered' }]);
    expect(
      runsOf(h)
        .map((r) => r.key_value)
        .sort(),
    ).toEqual(['A-1', 'B-2']);
    expect(lockOf(h, ann.id, 'A-1')?.run_id).toBe(first.journey_entries![0]!.run_id);
    expect(journeyMessages(h)).toHaveLength(2);
    expect(await h.stores.events.get(CLIENT_ID, again.id)).toEqual(again);
  });

  it.each([
    // [rule, days since the ended run entered, outcome]
    [{ mode: 'once' as const }, 400, 'reentry_window'],
    [{ mode: 'always' as const }, 0, 'entered'],
    [{ mode: 'every_days' as const, days: 30 }, 29, 'reentry_window'],
    [{ mode: 'every_days' as const, days: 30 }, 31, 'entered'],
  ])('after the run ended, re-entry %o %i days later is %s', async (reentry, days, outcome) => {
    // Prepare: a run entered and ended (its lock released).
    const h = await engineHarness();
    publishIndex(h, cartJourney({ trigger: { event: 'cart_abandoned', key: 'cart_id', reentry } }));
    const ann = await h.contact();
    await cart(h, ann.email, 'A-1');
    lockOf(h, ann.id, 'A-1')!.active = false;
    const stored = h.stores.contacts.contacts.get(clientKey(CLIENT_ID, ann.id)) as unknown as Record<string, unknown>;
    for (const name of Object.keys(stored)) if (name.startsWith('run_')) delete stored[name];
    h.clock.advance(days * DAY_MS);

    // Act
    const processed = await cart(h, ann.email, 'A-1');

    // Assess
    expect(processed.journey_entries).toEqual([
      { journey_id: 1000, run_id: outcome === 'entered' ? expect.any(Number) : null, outcome },
    ]);
    expect(runsOf(h)).toHaveLength(outcome === 'entered' ? 2 : 1);
    if (outcome === 'entered') expect(lockOf(h, ann.id, 'A-1')).toMatchObject({ active: true });
    if (reentry.mode === 'every_days' && outcome === 'entered')
      expect(lockOf(h, ann.id, 'A-1')?.expires_at).toBe(
        Math.floor((Date.parse(NOW) + (days + reentry.days + LOCK_GRACE_DAYS) * DAY_MS) / 1000),
      );
  });
});

describe('processEvent: resolving waits', () => {
  it('resumes the run waiting for this event with the same key: active at seq + 1, marker gone, message, schedule released', async () => {
    // Prepare: a run waits for checkout_completed of cart A-1 until 14:00 (a Scheduler schedule: over 15 minutes away).
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await h.contact();
    const run = seedWaitingRun(h, ann.id, 'A-1', { runId: 4242, seq: 2 });

    // Act
    const processed = await cart(h, ann.email, 'A-1', 'checkout_completed');

    // Assess
    expect(h.stores.processing.data.runs.get(clientKey(CLIENT_ID, run.id))).toMatchObject({
      status: 'active',
      seq: 3,
      resumed_by: { event_id: processed.id, at: NOW },
      due_at: NOW,
      step_id: 'wait_checkout',
    });
    const attributes = await attributesOf(h, ann.id);
    expect(attributes).not.toHaveProperty('wait_4242');
    expect(attributes['run_4242']).toEqual({ j: 1000, q: 2, k: keyHashOf('A-1') });
    expect(processed).toMatchObject({ resumed_run_ids: [4242], resumed_run_seqs: [3] });
    expect(processed).not.toHaveProperty('journey_entries');
    expect(journeyMessages(h)).toEqual([
      {
        queue: 'journey',
        message: { client_id: CLIENT_ID, run_id: 4242, seq: 3, contact_id: ann.id, journey_id: 1000, version: 3 },
        options: { delaySeconds: 0 },
      },
    ]);
    expect(h.scheduler.cancelled).toEqual([`run-${CLIENT_ID}-4242-2-${Date.parse('2026-01-15T14:00:00.000Z')}`]);
  });

  it.each([
    ['another cart', 'B-9', []],
    ['conditions on the awaited event that do not hold', 'A-1', [{ on: 'event', path: 'amount', op: 'gte', value: 1 }]],
  ])('leaves the run waiting for %s', async (_, cartId, conditions) => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await h.contact();
    seedWaitingRun(h, ann.id, 'A-1', { runId: 4242, conditions });

    // Act
    const processed = await cart(h, ann.email, cartId, 'checkout_completed');

    // Assess
    expect(h.stores.processing.data.runs.get(clientKey(CLIENT_ID, 4242))).toMatchObject({ status: 'waiting', seq: 2 });
    expect(await attributesOf(h, ann.id)).toHaveProperty('wait_4242');
    expect(processed).not.toHaveProperty('resumed_run_ids');
    expect(journeyMessages(h)).toEqual([]);
  });

  it('commits without the run when its timeout moved it first (the resolution finds another seq)', async () => {
    // Prepare: the marker names seq 2, the run moved on to seq 3 (its timeout's transition).
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await h.contact();
    const run = seedWaitingRun(h, ann.id, 'A-1', { runId: 4242, seq: 2 });
    Object.assign(run, { seq: 3, status: 'active', step_id: 'remind' });

    // Act
    const processed = await cart(h, ann.email, 'A-1', 'checkout_completed');

    // Assess
    expect(processed.queue_status).toBe('processed');
    expect(processed).not.toHaveProperty('resumed_run_ids');
    expect(run).toMatchObject({ seq: 3, status: 'active', step_id: 'remind' });
    expect(run).not.toHaveProperty('resumed_by');
    expect(journeyMessages(h)).toEqual([]);
  });

  it('reads the contact again when a wait was entered after its read (waits_v), and resumes that wait', async () => {
    // Prepare: the first context read sees no wait; the wait is written right after it.
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await h.contact();
    const event = await h.ingest({ type: 'checkout_completed', email: ann.email, cart_id: 'A-1' });
    const real = h.stores.processing;
    let reads = 0;
    const processing: ProcessingStore = {
      findContactId: (c, ref) => real.findContactId(c, ref),
      loadContext: async (c, id, w) => {
        const context = await real.loadContext(c, id, w);
        reads += 1;
        if (reads === 1) seedWaitingRun(h, ann.id, 'A-1', { runId: 4242 });
        return context;
      },
      commit: (commit) => real.commit(commit),
    };

    // Act
    const processed = (await processEvent(
      eventProcessingDeps({ ...h.stores, queue: h.queue, scheduler: h.scheduler, processing }),
      CLIENT_ID,
      event.id,
    ))!;

    // Assess
    expect(reads).toBe(2);
    expect(processed.resumed_run_ids).toEqual([4242]);
    expect(h.stores.processing.data.runs.get(clientKey(CLIENT_ID, 4242))).toMatchObject({ status: 'active', seq: 3 });
  });
});

describe('processEvent: exit events', () => {
  it("exits the contact's runs of a journey listing the event: run exited, markers gone, lock released, goal mark set", async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await h.contact();
    const run = seedWaitingRun(h, ann.id, 'A-1', { runId: 4242 });

    // Act
    const processed = (await h.process((await h.ingest({ type: 'account_closed', email: ann.email })).id))!;

    // Assess
    expect(run).toMatchObject({ status: 'exited', reason: 'exit_event', ended_at: NOW });
    expect(run).not.toHaveProperty('due_at');
    const attributes = await attributesOf(h, ann.id);
    expect(attributes).not.toHaveProperty('run_4242');
    expect(attributes).not.toHaveProperty('wait_4242');
    expect(attributes['goal_w1000']).toEqual({ at: NOW, event_id: processed.id });
    expect(lockOf(h, ann.id, 'A-1')).toMatchObject({ run_id: 4242, active: false });
    expect(h.scheduler.cancelled).toEqual([`run-${CLIENT_ID}-4242-2-${Date.parse('2026-01-15T14:00:00.000Z')}`]);
    expect(journeyMessages(h)).toEqual([]);
  });

  it('exits rather than resumes when the event both exits the journey and matches its wait', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, cartJourney({ settings: { ...cartJourney().settings, exit_events: ['checkout_completed'] } }));
    const ann = await h.contact();
    const run = seedWaitingRun(h, ann.id, 'A-1', { runId: 4242 });

    // Act
    const processed = await cart(h, ann.email, 'A-1', 'checkout_completed');

    // Assess
    expect(run).toMatchObject({ status: 'exited', reason: 'exit_event' });
    expect(processed).not.toHaveProperty('resumed_run_ids');
  });

  it('never exits on an event of the trigger type, even with `*`', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(
      h,
      cartJourney({
        trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
        settings: { ...cartJourney().settings, exit_events: ['*'] },
      }),
    );
    const ann = await h.contact();
    const run = seedWaitingRun(h, ann.id, 'A-1', { runId: 4242 });

    // Act
    await cart(h, ann.email, 'B-2');

    // Assess
    expect(run.status).toBe('waiting');
    expect(runsOf(h)).toHaveLength(2);
  });
});

describe('processEvent: a redelivered event', () => {
  it('dispatches its entered and resumed runs again at the seq the commit gave them', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(
      h,
      cartJourney(),
      cartJourney({
        id: 1001,
        trigger: { event: 'checkout_completed', reentry: { mode: 'always' } },
        awaited_events: [],
      }),
    );
    const ann = await h.contact();
    seedWaitingRun(h, ann.id, 'A-1', { runId: 4242 });
    const processed = await cart(h, ann.email, 'A-1', 'checkout_completed');
    const entered = processed.journey_entries![0]!.run_id!;
    h.queue.sent.length = 0;

    // Act
    await h.process(processed.id);

    // Assess
    expect(journeyMessages(h).map((s) => s.message)).toEqual([
      { client_id: CLIENT_ID, run_id: entered, seq: 1, contact_id: ann.id },
      { client_id: CLIENT_ID, run_id: 4242, seq: 3, contact_id: ann.id },
    ]);
  });
});

describe('toEventView with journeys', () => {
  it('shows journey_entries and resumed_run_ids only for an event that has them', async () => {
    // Prepare
    const h = await engineHarness();
    publishIndex(h, cartJourney());
    const ann = await h.contact();
    seedWaitingRun(h, ann.id, 'A-1', { runId: 4242 });
    const entered = await cart(h, ann.email, 'B-2');
    const resumed = await cart(h, ann.email, 'A-1', 'checkout_completed');
    const plain = await cart(h, ann.email, 'B-2', 'page_viewed');

    // Act
    const views = [entered, resumed, plain].map((e) => EventView.parse(toEventView(e)));

    // Assess
    expect(views[0]).toMatchObject({
      journey_entries: [{ journey_id: 1000, run_id: entered.journey_entries![0]!.run_id, outcome: 'entered' }],
    });
    expect(views[0]).not.toHaveProperty('resumed_run_ids');
    expect(views[1]).toMatchObject({ resumed_run_ids: [4242] });
    expect(views[1]).not.toHaveProperty('journey_entries');
    expect(Object.keys(views[2]!)).not.toContain('journey_entries');
    expect(Object.keys(views[2]!)).not.toContain('resumed_run_ids');
  });
});

describe('processEvent: an event that both triggers and would exit a journey', () => {
  it('starts a run of a journey its or_when meets rather than exiting it (one write per lock)', async () => {
    // Prepare: the journey exits on every event, and starts on any event with upgrade: true.
    const h = await engineHarness();
    publishIndex(
      h,
      cartJourney({
        trigger: {
          event: 'cart_abandoned',
          or_when: [{ on: 'event', path: 'upgrade', op: 'eq', value: true }],
          reentry: { mode: 'always' },
        },
        settings: { ...cartJourney().settings, exit_events: ['*'] },
      }),
    );
    const ann = await h.contact();
    const event = await h.ingest({ type: 'plan_changed', email: ann.email, upgrade: true });

    // Act
    const processed = (await h.process(event.id))!;

    // Assess
    expect(processed.journey_entries).toEqual([{ journey_id: 1000, run_id: expect.any(Number), outcome: 'entered' }]);
    expect(await attributesOf(h, ann.id)).not.toHaveProperty('goal_w1000');
  });
});
