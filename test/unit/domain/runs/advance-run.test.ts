import { beforeEach, describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import type { JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import { splitArmOf } from '../../../../shared/domain/journeys/definition/split-hash.js';
import { PAUSED_RUN_RECHECK_MS } from '../../../../shared/domain/runs/advance-run.js';
import { sentEmailIdOf } from '../../../../shared/domain/sent-emails/sent-email-id.js';
import { definitionOf, indexedOf, indexOf, JOURNEY_ID, RUN_CLIENT, runRecord, T0, versionOf } from './run-fixtures.js';
import { runWorld, type RunWorld } from './run-world.js';

const MINUTE = 60_000;
const KEY = 'ab'.repeat(32);

/** The cart journey: wait for checkout (keyed), else a reminder e-mail. */
const CART: JourneyStep[] = [
  {
    id: 'checkout',
    type: 'wait_for_event',
    event: 'checkout_completed',
    match_key: true,
    timeout_minutes: 240,
    on_event: null,
    on_timeout: 'remind',
  },
  { id: 'remind', type: 'send', template_id: 3, priority_score: 60, send_time: { mode: 0 }, next: null },
];

let world: RunWorld;

/** Publishes `steps` as version 1 (live), starts the run at the entry, and returns it. */
async function journeyWith(steps: JourneyStep[], run = runRecord({ step_id: steps[0]!.id })) {
  const definition = definitionOf(steps);
  world.journeys.publish(versionOf(definition, 1));
  world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(definition)));
  world.start(run);
  world.lock(run);
  return run;
}

const first = { client_id: RUN_CLIENT, run_id: 4242, seq: 1, contact_id: 100 };
/** What every message advance-runs sends names besides: the run's journey and version (read with the run). */
const onVersion1 = { journey_id: JOURNEY_ID, version: 1 };

beforeEach(async () => {
  world = await runWorld();
  await world.contact({ timezone: 'Europe/Paris' });
});

describe('advanceRun: a wait_for_event and its timeout', () => {
  it('enters the wait: status waiting, due at the timeout, the keyed marker and waits_v + 1, in one read and one write', async () => {
    // Prepare
    await journeyWith(CART);

    // Act
    const outcome = await world.advance(first);

    // Assess
    expect(outcome.kind).toBe('moved');
    const timeout = new Date(Date.parse(T0) + 240 * MINUTE).toISOString();
    expect(world.run(4242)).toMatchObject({
      status: 'waiting',
      seq: 2,
      step_id: 'checkout',
      due_at: timeout,
      wait: { kind: 'wait_for_event', event: 'checkout_completed', until: timeout },
    });
    expect(world.stored(100)).toMatchObject({
      wait_4242: { j: JOURNEY_ID, v: 1, s: 'checkout', q: 2, e: 'checkout_completed', k: KEY, t: timeout },
      waits_v: 1,
    });
    expect({ reads: world.runs.reads, writes: world.runs.transitions }).toEqual({ reads: 1, writes: 1 });
    // 4 hours: beyond SQS's 15 minutes, one schedule named after the run and its new seq.
    expect(world.queue.sent).toEqual([]);
    expect(world.scheduler.scheduled).toEqual([
      {
        instant: timeout,
        queue: 'journey',
        message: { client_id: RUN_CLIENT, run_id: 4242, seq: 2, contact_id: 100, ...onVersion1 },
        name: `run-${RUN_CLIENT}-4242-2-${Date.parse(timeout)}`,
      },
    ]);
  });

  it('takes on_timeout when the timeout comes first: the marker goes, the reminder is planned and queued', async () => {
    // Prepare
    await journeyWith(CART);
    await world.advance(first);
    world.clock.advance(240 * MINUTE);
    world.runs.reset();

    // Act
    const outcome = await world.advance({ ...first, seq: 2 });

    // Assess
    expect(outcome.kind).toBe('moved');
    const run = world.run(4242)!;
    const executionId = run.sends['remind']!.execution_id;
    expect(run).toMatchObject({
      status: 'active',
      seq: 3,
      step_id: 'remind',
      wait: { kind: 'send', execution_id: executionId },
    });
    expect(run.path).toEqual([{ step: 'checkout', seq: 3, at: world.clock.now().toISOString(), via: 'on_timeout' }]);
    expect(world.stored(100)).not.toHaveProperty('wait_4242');
    expect(world.stored(100)).toMatchObject({
      waits_v: 1,
      active_workflow_count: 1,
      [`open_${executionId}`]: { w: JOURNEY_ID },
    });
    expect(world.execution(executionId)).toMatchObject({
      status: EXECUTION_STATUS.queued,
      workflow_id: JOURNEY_ID,
      template_id: 3,
      priority_score: 60,
      run_id: 4242,
      run_seq: 3,
      step_id: 'remind',
      journey_version: 1,
      category: 'marketing',
      scheduled_for: world.clock.now().toISOString(),
      send_zone: 'Europe/Paris',
    });
    expect(
      world.data
        .peekDayCap(RUN_CLIENT, 100, run.sends['remind']!.execution_id ? world.execution(executionId)!.cap_day : '')
        ?.pending.get(executionId),
    ).toBe(60);
    // Its execution's message only: the run's safety net is its RUNDUE entry an hour after the send time.
    expect(world.queue.sent).toEqual([
      {
        queue: 'workflow',
        message: { client_id: RUN_CLIENT, execution_id: executionId },
        options: { delaySeconds: 0 },
      },
    ]);
    expect(run.due_at).toBe(new Date(world.clock.now().getTime() + 60 * MINUTE).toISOString());
    expect({ reads: world.runs.reads, writes: world.runs.transitions }).toEqual({ reads: 1, writes: 1 });
  });

  it('takes on_event when event processing resumed the run, clearing resumed_by', async () => {
    // Prepare
    await journeyWith(CART);
    await world.advance(first);
    // What the processing commit writes when the awaited event wins (seq q + 1, resumed_by, due now).
    Object.assign(world.run(4242)!, {
      status: 'active',
      seq: 3,
      due_at: T0,
      resumed_by: { event_id: 9100, at: T0 },
    });

    // Act
    const outcome = await world.advance({ ...first, seq: 3 });

    // Assess
    expect(outcome.kind).toBe('moved');
    const run = world.run(4242)!;
    expect(run).toMatchObject({ status: 'completed', seq: 4, ended_at: T0 });
    expect(run).not.toHaveProperty('resumed_by');
    expect(run).not.toHaveProperty('due_at');
    expect(run.path).toEqual([{ step: 'checkout', seq: 4, at: T0, via: 'on_event' }]);
    expect(world.stored(100)).not.toHaveProperty('run_4242');
    expect(world.data.runLocks.get(`RUNLOCK#${RUN_CLIENT}#${JOURNEY_ID}#100#${KEY}`)?.active).toBe(false);
  });

  it('lets the timeout that comes after the event win nothing: its seq is old', async () => {
    // Prepare
    await journeyWith(CART);
    await world.advance(first);
    Object.assign(world.run(4242)!, { status: 'active', seq: 3, due_at: T0, resumed_by: { event_id: 9100, at: T0 } });
    await world.advance({ ...first, seq: 3 });
    world.clock.advance(240 * MINUTE);
    world.runs.reset();

    // Act
    const outcome = await world.advance({ ...first, seq: 2 });

    // Assess
    expect(outcome).toEqual({ kind: 'stale' });
    expect(world.runs.transitions).toBe(0);
    expect(world.run(4242)!.path.map((p) => p.via)).toEqual(['on_event']);
  });
});

describe('advanceRun: messages that must move nothing', () => {
  it('does nothing for a repeated message: the first moved the run, the second finds its seq old', async () => {
    // Prepare
    await journeyWith(CART);
    await world.advance(first);
    const after = structuredClone(world.run(4242));

    // Act
    const again = await world.advance(first);

    // Assess
    expect(again).toEqual({ kind: 'stale' });
    expect(world.run(4242)).toEqual(after);
    expect(world.stored(100)!['waits_v']).toBe(1);
  });

  it('sends an early message back for the due time and writes nothing', async () => {
    // Prepare
    const run = await journeyWith([{ id: 'pause', type: 'wait', minutes: 10, next: null }]);
    world.data.runs.get(`${RUN_CLIENT}\u0000${run.id}`)!.due_at = new Date(Date.parse(T0) + 5 * MINUTE).toISOString();

    // Act: without hints, too (a duplicate from the sweep of an older seq would carry them; this one does not).
    const outcome = await world.advance({ client_id: RUN_CLIENT, run_id: 4242, seq: 1 });

    // Assess
    expect(outcome).toEqual({ kind: 'not_due' });
    expect({ reads: world.runs.reads, writes: world.runs.transitions }).toEqual({ reads: 1, writes: 0 });
    expect(world.queue.sent).toEqual([
      { queue: 'journey', message: { ...first, ...onVersion1 }, options: { delaySeconds: 300 } },
    ]);
  });

  it('does nothing for an ended run', async () => {
    // Prepare
    await journeyWith(
      CART,
      runRecord({ step_id: 'checkout', status: 'exited', reason: 'exit_event', due_at: undefined }),
    );

    // Act
    const outcome = await world.advance(first);

    // Assess
    expect(outcome).toEqual({ kind: 'ended' });
    expect(world.runs.transitions).toBe(0);
  });
});

describe('advanceRun: steps', () => {
  it('waits a duration, then goes on to the next step', async () => {
    // Prepare
    await journeyWith([
      { id: 'pause', type: 'wait', minutes: 10, next: 'bye' },
      { id: 'bye', type: 'exit' },
    ]);

    // Act
    const entered = await world.advance(first);
    world.clock.advance(10 * MINUTE);
    const left = await world.advance({ ...first, seq: 2 });

    // Assess
    expect(entered.kind).toBe('moved');
    expect(left.kind).toBe('moved');
    expect(world.queue.sent[0]).toEqual({
      queue: 'journey',
      message: { ...first, seq: 2, ...onVersion1 },
      options: { delaySeconds: 600 },
    });
    expect(world.run(4242)).toMatchObject({ status: 'exited', reason: 'exit_step', seq: 3, step_id: 'bye' });
    expect(world.run(4242)!.path.map((p) => [p.step, p.seq])).toEqual([
      ['pause', 3],
      ['bye', 3],
    ]);
  });

  it('waits until a local time of day in the contact’s zone (Paris 09:00 is 08:00 UTC)', async () => {
    // Prepare
    await journeyWith([{ id: 'morning', type: 'wait_until', time: '09:00', next: null }]);

    // Act
    await world.advance(first);

    // Assess: 10:00 UTC is 11:00 in Paris, so the next 09:00 there is tomorrow's.
    expect(world.run(4242)).toMatchObject({ due_at: '2026-01-16T08:00:00.000Z', wait: { kind: 'wait_until' } });
  });

  it('branches on the trigger event (first match wins), inline with the next wait', async () => {
    // Prepare
    await journeyWith([
      {
        id: 'size',
        type: 'branch',
        branches: [
          { name: 'big', conditions: [{ on: 'event', path: 'total', op: 'gte', value: 100 }], next: 'big_wait' },
          { name: 'any', conditions: [], next: 'small_wait' },
        ],
        otherwise: null,
      },
      { id: 'big_wait', type: 'wait', minutes: 60, next: null },
      { id: 'small_wait', type: 'wait', minutes: 5, next: null },
    ]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ step_id: 'big_wait', branches: { size: 'big' }, seq: 2 });
    expect(world.run(4242)!.path).toEqual([{ step: 'size', seq: 2, at: T0, via: 'big' }]);
    expect(world.runs.transitions).toBe(1);
  });

  it('splits by the run’s hash, the same arm on every replay', async () => {
    // Prepare
    await journeyWith([
      {
        id: 'ab',
        type: 'split',
        arms: [
          { name: 'a', percent: 50, next: 'wait_a' },
          { name: 'b', percent: 50, next: 'wait_b' },
        ],
      },
      { id: 'wait_a', type: 'wait', minutes: 1, next: null },
      { id: 'wait_b', type: 'wait', minutes: 1, next: null },
    ]);

    // Act
    await world.advance(first);

    // Assess
    const arm = splitArmOf(4242, 'ab', [50, 50]);
    expect(world.run(4242)).toMatchObject({ arms: { ab: arm }, step_id: arm === 0 ? 'wait_a' : 'wait_b' });
  });

  const SPLIT_WITH_WINNER: JourneyStep[] = [
    {
      id: 'ab',
      type: 'split',
      arms: [
        { name: 'a', percent: 50, next: 'mail_a' },
        { name: 'b', percent: 50, next: 'mail_b' },
      ],
      winner: { metric: 'human_opens', min_sends_per_arm: 2 },
    },
    { id: 'mail_a', type: 'send', template_id: 3, send_time: { mode: 0 }, next: null },
    { id: 'mail_b', type: 'send', template_id: 3, send_time: { mode: 0 }, next: null },
  ];
  const decided = (arm: string) => ({
    arm,
    metric: 'human_opens' as const,
    rates: { a: 0, b: 0.5 },
    sent: { a: 2, b: 2 },
    decided_at: T0,
  });

  it('takes a decided winner’s arm whatever the hash says, and the send names the arm it came by', async () => {
    // Prepare: the winner is the arm the hash would not pick for this run.
    await journeyWith(SPLIT_WITH_WINNER);
    const hashed = splitArmOf(4242, 'ab', [50, 50]);
    const winner = hashed === 0 ? 'b' : 'a';
    const index = world.journeys.indexes.get(RUN_CLIENT)!;
    index.journeys[0]!.split_winners = { ab: decided(winner) };

    // Act
    const outcome = await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ arms: { ab: winner === 'a' ? 0 : 1 }, step_id: `mail_${winner}` });
    expect(outcome.kind === 'moved' && outcome.executions[0]).toMatchObject({
      step_id: `mail_${winner}`,
      arms: { ab: winner },
    });
  });

  it('without a decided winner takes the hash’s arm; a winner naming an arm the version lacks is ignored', async () => {
    // Prepare
    await journeyWith(SPLIT_WITH_WINNER);
    world.journeys.indexes.get(RUN_CLIENT)!.journeys[0]!.split_winners = { ab: decided('gone') };

    // Act
    await world.advance(first);

    // Assess
    const arm = splitArmOf(4242, 'ab', [50, 50]);
    expect(world.run(4242)).toMatchObject({ arms: { ab: arm } });
  });

  it('updates the contact in the run’s transaction, and a later branch reads the change', async () => {
    // Prepare
    await journeyWith([
      {
        id: 'mark',
        type: 'update_contact',
        set: { company: 'Acme', phone: null },
        set_custom: { plan: 'pro' },
        add_tags: ['cart'],
        next: 'check',
      },
      {
        id: 'check',
        type: 'branch',
        branches: [
          {
            name: 'tagged',
            conditions: [
              { on: 'tag', op: 'has', tag: 'cart' },
              { on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' },
            ],
            next: null,
          },
        ],
        otherwise: 'never',
      },
      { id: 'never', type: 'wait', minutes: 1, next: null },
    ]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ status: 'completed', branches: { check: 'tagged' } });
    const contact = world.stored(100)!;
    expect(contact).toMatchObject({ company: 'Acme', tags: ['cart'], updated_at: T0 });
    expect(contact.custom_fields['plan']).toEqual({ id: expect.any(Number), value: 'pro' });
    expect(contact).not.toHaveProperty('phone');
    expect(world.runs.transitions).toBe(1);
  });

  it('reads again when the contact changed under an update_contact step (nothing half-written)', async () => {
    // Prepare
    await journeyWith([{ id: 'mark', type: 'update_contact', add_tags: ['cart'], next: null }]);
    let changedOnce = false;
    const inner = world.runs.transition;
    world.runs.transition = async (t) => {
      if (!changedOnce) {
        changedOnce = true;
        // Another writer (an event's tags) lands between the read and the write.
        Object.assign(world.stored(100)!, { tags: ['vip'], updated_at: '2026-01-15T09:59:00.000Z' });
      }
      return inner(t);
    };

    // Act
    await world.advance(first);

    // Assess
    expect(world.stored(100)!.tags).toEqual(['vip', 'cart']);
    expect(world.runs.reads).toBe(2);
  });

  it('exits at an exit step: exited exit_step, markers and lock released', async () => {
    // Prepare
    await journeyWith([{ id: 'bye', type: 'exit' }]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.run(4242)).toMatchObject({ status: 'exited', reason: 'exit_step', ended_at: T0 });
    expect(world.run(4242)!.expires_at).toBe(Date.parse(T0) / 1000 + 90 * 86_400);
    expect(world.stored(100)).not.toHaveProperty('run_4242');
    expect(world.data.runLocks.get(`RUNLOCK#${RUN_CLIENT}#${JOURNEY_ID}#100#${KEY}`)?.active).toBe(false);
  });
});

describe('advanceRun: a send step', () => {
  const SEND: JourneyStep[] = [
    { id: 'hello', type: 'send', template_id: 3, send_time: { mode: 0 }, next: 'later' },
    {
      id: 'later',
      type: 'branch',
      branches: [
        { name: 'clicked', conditions: [{ on: 'engagement', send_step: 'hello', op: 'human_clicked' }], next: null },
      ],
      otherwise: 'again',
    },
    { id: 'again', type: 'wait', minutes: 1, next: null },
  ];

  it('moves on when its execution ended (the executor’s wake), reading the counted engagement by its hint', async () => {
    // Prepare
    await journeyWith(SEND);
    await world.advance(first);
    const executionId = world.run(4242)!.sends['hello']!.execution_id;
    world.endExecution(executionId, EXECUTION_STATUS.completed);
    world.engage(sentEmailIdOf({ client_id: RUN_CLIENT, id: executionId }), 'click');
    world.runs.reset();

    // Act: the wake as the executor sends it (contact and execution as hints), without the engagement hint.
    const outcome = await world.advance({ ...first, seq: 2, execution_id: executionId });

    // Assess
    expect(outcome.kind).toBe('moved');
    expect(world.run(4242)).toMatchObject({ status: 'completed', branches: { later: 'clicked' }, seq: 3 });
    expect(world.run(4242)!.path.map((p) => p.step)).toEqual(['hello', 'later']);
    // The engagement markers were not hinted: one read more.
    expect({ reads: world.runs.reads, writes: world.runs.transitions }).toEqual({ reads: 2, writes: 1 });
  });

  it('holds when the safety net finds the execution still queued: only the due time moves, the seq stays', async () => {
    // Prepare
    await journeyWith(SEND);
    await world.advance(first);
    const executionId = world.run(4242)!.sends['hello']!.execution_id;
    world.clock.advance(61 * MINUTE);

    // Act
    const outcome = await world.advance({ ...first, seq: 2, execution_id: executionId });

    // Assess
    expect(outcome).toEqual({
      kind: 'held',
      reason: 'send_pending',
      due_at: new Date(world.clock.now().getTime() + 60 * MINUTE).toISOString(),
    });
    expect(world.run(4242)).toMatchObject({
      seq: 2,
      step_id: 'hello',
      wait: { kind: 'send', execution_id: executionId },
    });
  });

  it('goes straight on when the plan skips the e-mail (no time to send): the skipped execution is kept', async () => {
    // Prepare: a send window inside the quiet hours leaves no time at all.
    await world.settings(RUN_CLIENT, {
      send_window_enabled: true,
      send_window_start_hour: 9,
      send_window_end_hour: 17,
      quiet_hour_start: 8,
      quiet_hour_end: 18,
    });
    await journeyWith(SEND);

    // Act
    await world.advance(first);

    // Assess
    const run = world.run(4242)!;
    const executionId = run.sends['hello']!.execution_id;
    expect(world.execution(executionId)).toMatchObject({ status: EXECUTION_STATUS.skipped, reason: 'no_send_time' });
    expect(run).toMatchObject({ step_id: 'again', branches: { later: 'otherwise' }, seq: 2 });
    expect(world.stored(100)).not.toHaveProperty(`open_${executionId}`);
    expect(world.queue.sent.filter((m) => m.queue === 'workflow')).toEqual([]);
  });
});

describe('advanceRun: its reads', () => {
  const LATER_BRANCH: JourneyStep[] = [
    { id: 'hello', type: 'send', template_id: 3, send_time: { mode: 0 }, next: 'pause' },
    { id: 'pause', type: 'wait', minutes: 60 * 24, next: 'later' },
    {
      id: 'later',
      type: 'branch',
      branches: [
        { name: 'opened', conditions: [{ on: 'engagement', send_step: 'hello', op: 'human_opened' }], next: null },
      ],
      otherwise: 'bye',
    },
    { id: 'bye', type: 'exit' },
  ];

  it('reads the run first and the rest after when a message carries no hints: one request more', async () => {
    // Prepare
    await journeyWith(CART);

    // Act
    await world.advance({ client_id: RUN_CLIENT, run_id: 4242, seq: 1 });

    // Assess
    expect(world.run(4242)).toMatchObject({ seq: 2, status: 'waiting' });
    expect({ reads: world.runs.reads, writes: world.runs.transitions }).toEqual({ reads: 2, writes: 1 });
  });

  it('hints the e-mail an engagement branch after a wait reads: the wake into the wait and the branch are one read each', async () => {
    // Prepare
    await journeyWith(LATER_BRANCH);
    await world.advance(first);
    const executionId = world.run(4242)!.sends['hello']!.execution_id;
    const sentEmailId = sentEmailIdOf({ client_id: RUN_CLIENT, id: executionId });
    world.endExecution(executionId, EXECUTION_STATUS.completed);
    world.engage(sentEmailId, 'open');

    // Act: the executor's wake (its hints: contact and execution) enters the wait; a day later, the wait's message.
    world.runs.reset();
    await world.advance({ ...first, seq: 2, execution_id: executionId });
    const wakeReads = world.runs.reads;
    const [waitMessage] = world.scheduler.scheduled.map((s) => s.message);
    world.clock.advance(24 * 60 * MINUTE);
    world.runs.reset();
    await world.advance(waitMessage as typeof first);

    // Assess
    expect(wakeReads).toBe(1);
    expect(waitMessage).toEqual({ ...first, seq: 3, ...onVersion1, sent_email_ids: [sentEmailId] });
    expect(world.run(4242)).toMatchObject({ status: 'completed', branches: { later: 'opened' } });
    expect({ reads: world.runs.reads, writes: world.runs.transitions }).toEqual({ reads: 1, writes: 1 });
  });

  it('counts only a human’s engagement: no counted marker (a privacy proxy’s or a scanner’s open) is neither', async () => {
    // Prepare
    await journeyWith(LATER_BRANCH);
    await world.advance(first);
    const executionId = world.run(4242)!.sends['hello']!.execution_id;
    world.endExecution(executionId, EXECUTION_STATUS.completed);
    await world.advance({ ...first, seq: 2, execution_id: executionId });
    world.clock.advance(24 * 60 * MINUTE);

    // Act
    await world.advance(world.scheduler.scheduled[0]!.message as typeof first);

    // Assess
    expect(world.run(4242)).toMatchObject({ status: 'exited', branches: { later: 'otherwise' } });
  });
});

describe('advanceRun: the journey’s lifecycle and versions', () => {
  it('holds a paused journey’s run an hour, seq unchanged', async () => {
    // Prepare
    const definition = definitionOf(CART);
    await journeyWith(CART);
    world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(definition, { status: 'paused' })));

    // Act
    const outcome = await world.advance(first);

    // Assess
    const due = new Date(Date.parse(T0) + PAUSED_RUN_RECHECK_MS).toISOString();
    expect(outcome).toEqual({ kind: 'held', reason: 'journey_paused', due_at: due });
    expect(world.run(4242)).toMatchObject({ seq: 1, status: 'active', due_at: due });
    expect(world.scheduler.scheduled[0]).toMatchObject({ instant: due, message: { seq: 1 } });
  });

  it('ends a run of an archived journey (gone from the index) at its next step: its wait marker goes too', async () => {
    // Prepare
    await journeyWith(CART);
    await world.advance(first);
    world.journeys.indexes.set(RUN_CLIENT, indexOf());
    world.clock.advance(240 * MINUTE);

    // Act
    await world.advance({ ...first, seq: 2 });

    // Assess
    expect(world.run(4242)).toMatchObject({ status: 'ended', reason: 'journey_archived', seq: 3 });
    expect(world.stored(100)).not.toHaveProperty('wait_4242');
    expect(world.stored(100)).not.toHaveProperty('run_4242');
    expect(world.data.runLocks.get(`RUNLOCK#${RUN_CLIENT}#${JOURNEY_ID}#100#${KEY}`)?.active).toBe(false);
  });

  it('reads the version its message names with the run: a cold container moves it in one read and one write', async () => {
    // Prepare
    await journeyWith(CART);

    // Act
    await world.advance({ ...first, ...onVersion1 });

    // Assess
    expect(world.run(4242)).toMatchObject({ seq: 2, status: 'waiting' });
    expect({ reads: world.runs.reads, versionReads: world.runs.versionReads, writes: world.runs.transitions }).toEqual({
      reads: 1,
      versionReads: 0,
      writes: 1,
    });
  });

  it('reads only the versions published since its message was sent, one read more; its own came with the run', async () => {
    // Prepare
    await journeyWith([{ id: 'pause', type: 'wait', minutes: 10, next: null }]);
    await world.advance({ ...first, ...onVersion1 });
    const v2 = definitionOf([
      { id: 'pause', type: 'wait', minutes: 10, next: 'bye' },
      { id: 'bye', type: 'exit' },
    ]);
    world.journeys.publish(versionOf(v2, 2));
    world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(v2, { live_version: 2 })));
    world.clock.advance(10 * MINUTE);
    const [message] = world.journeyMessages();
    const asked: number[][] = [];
    const versions = world.runs.versions;
    world.runs.versions = (clientId, journeyId, wanted) => {
      asked.push([...wanted]);
      return versions(clientId, journeyId, wanted);
    };
    world.runs.reset();

    // Act
    await world.advance(message!);

    // Assess
    expect(message).toMatchObject(onVersion1);
    expect(asked).toEqual([[2]]);
    expect(world.run(4242)).toMatchObject({ version: 2, status: 'exited', reason: 'exit_step' });
    expect({ reads: world.runs.reads, versionReads: world.runs.versionReads, writes: world.runs.transitions }).toEqual({
      reads: 1,
      versionReads: 1,
      writes: 1,
    });
  });

  it('leaves aside a version its message names that is not the run’s (a hint older than the seq): the run’s is read', async () => {
    // Prepare
    await journeyWith([{ id: 'bye', type: 'exit' }]);
    world.journeys.publish(versionOf(definitionOf([{ id: 'other', type: 'exit' }]), 2));

    // Act
    await world.advance({ ...first, journey_id: JOURNEY_ID, version: 2 });

    // Assess
    expect(world.run(4242)).toMatchObject({
      version: 1,
      status: 'exited',
      path: [expect.objectContaining({ step: 'bye' })],
    });
    expect(world.runs.versionReads).toBe(1);
  });

  it('follows the live version at its next step when its step still exists (the new edge is taken)', async () => {
    // Prepare
    await journeyWith([{ id: 'pause', type: 'wait', minutes: 10, next: null }]);
    await world.advance(first);
    const v2 = definitionOf([
      { id: 'pause', type: 'wait', minutes: 10, next: 'bye' },
      { id: 'bye', type: 'exit' },
    ]);
    world.journeys.publish(versionOf(v2, 2));
    world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(v2, { live_version: 2 })));
    world.clock.advance(10 * MINUTE);

    // Act
    await world.advance({ ...first, seq: 2 });

    // Assess
    expect(world.run(4242)).toMatchObject({ version: 2, status: 'exited', reason: 'exit_step' });
  });

  it.each([
    ['end', { action: 'end' as const }, { status: 'ended', reason: 'version_removed', version: 1 }],
    ['finish_old', { action: 'finish_old' as const }, { status: 'completed', version: 1, pinned: true }],
    ['move_to', { action: 'move_to' as const, step_id: 'bye' }, { status: 'exited', version: 2 }],
  ])('applies the publisher’s %s for a removed step', async (_name, move, expected) => {
    // Prepare
    await journeyWith([{ id: 'pause', type: 'wait', minutes: 10, next: null }]);
    await world.advance(first);
    const v2 = definitionOf([
      { id: 'start2', type: 'wait', minutes: 10, next: null },
      { id: 'bye', type: 'exit' },
    ]);
    world.journeys.publish(versionOf(v2, 2, { pause: move }));
    world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(v2, { live_version: 2 })));
    world.clock.advance(10 * MINUTE);

    // Act
    await world.advance({ ...first, seq: 2 });

    // Assess
    expect(world.run(4242)).toMatchObject(expected);
  });
});

describe('advanceRun: a worker that dies half-way', () => {
  it('a dispatch lost after the transaction: the run waits in RUNDUE, the sweep sends its current seq and it moves', async () => {
    // Prepare
    await journeyWith([
      { id: 'pause', type: 'wait', minutes: 1, next: 'bye' },
      { id: 'bye', type: 'exit' },
    ]);
    world.queue.failing = true;

    // Act
    const died = await world.advance(first).catch((error: unknown) => error);
    world.queue.failing = false;
    world.clock.advance(4 * MINUTE);
    const { sweepStuckRuns } = await import('../../../../shared/domain/runs/sweep-runs.js');
    const swept = await sweepStuckRuns({ runs: world.runs, queue: world.queue, clock: world.clock });
    const [message] = world.journeyMessages();
    await world.advance(message!);

    // Assess
    expect(died).toBeInstanceOf(Error);
    expect(swept.enqueued).toBe(1);
    expect(message).toEqual({ ...first, seq: 2, ...onVersion1 });
    expect(world.run(4242)).toMatchObject({ status: 'exited', seq: 3 });
  });

  it('a transaction that committed but whose answer was lost: the redelivery is stale, the sweep moves the run once', async () => {
    // Prepare
    await journeyWith([
      { id: 'pause', type: 'wait', minutes: 1, next: 'bye' },
      { id: 'bye', type: 'exit' },
    ]);
    world.runs.loseNextAnswer = true;

    // Act
    const died = await world.advance(first).catch((error: unknown) => error);
    const redelivered = await world.advance(first);
    world.clock.advance(4 * MINUTE);
    const { sweepStuckRuns } = await import('../../../../shared/domain/runs/sweep-runs.js');
    await sweepStuckRuns({ runs: world.runs, queue: world.queue, clock: world.clock });
    const messages = world.journeyMessages();
    await world.advance(messages[0]!);
    await world.advance(messages[0]!);

    // Assess
    expect(died).toBeInstanceOf(Error);
    expect(redelivered).toEqual({ kind: 'stale' });
    expect(messages).toEqual([{ ...first, seq: 2, ...onVersion1 }]);
    expect(world.run(4242)).toMatchObject({ status: 'exited', seq: 3 });
    expect(world.run(4242)!.path.map((p) => p.step)).toEqual(['pause', 'bye']);
  });
});
