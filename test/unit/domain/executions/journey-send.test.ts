import { afterEach, describe, expect, it, vi } from 'vitest';
import { sesNotification } from '../../../../local/engine/ses-notifications.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import {
  JOURNEY_ARCHIVED,
  JOURNEY_PAUSED,
  PAUSED_RECHECK_MS,
} from '../../../../shared/domain/executions/execute-workflow.js';
import { DEFAULT_LEASE_MS } from '../../../../shared/domain/executions/settle-claim.js';
import { sweepStuckExecutions } from '../../../../shared/domain/executions/sweep-executions.js';
import type { IndexedJourney, JourneyIndex } from '../../../../shared/domain/journeys/journey-records.js';
import { createTopic } from '../../../../shared/domain/topics/manage-topics.js';
import type { QueueMessages, QueueName, SendOptions } from '../../../../shared/platform.js';
import { CLIENT_ID, engineHarness, NOW, sendingPaused, type EngineHarness } from '../engine/engine-harness.js';

const JOURNEY_ID = 1000;
const RUN_ID = 77;
const RUN_SEQ = 4;

/** The fields a journey's send step puts on its execution (runs/plan-send-step.ts). */
const JOURNEY_SEND = {
  workflow_id: JOURNEY_ID,
  run_id: RUN_ID,
  run_seq: RUN_SEQ,
  step_id: 'remind',
  journey_version: 2,
  category: 'marketing',
  topic_id: null,
} as const satisfies Partial<ExecutionRecord>;

function indexedJourney(fields: Partial<IndexedJourney> = {}): IndexedJourney {
  return {
    id: JOURNEY_ID,
    name: 'Cart reminder',
    status: 'live',
    live_version: 2,
    trigger: { event: 'cart_abandoned', reentry: { mode: 'always' } } as IndexedJourney['trigger'],
    entry: 'remind',
    settings: {
      category: 'marketing',
      topic_id: null,
      critical: false,
      exit_events: ['checkout_completed'],
      conversion_window_days: 7,
    },
    awaited_events: [],
    templates_in_use: [],
    ...fields,
  };
}

/** The engine over memory ports, its client's journey index holding `journeys` (the executor reads it in its load). */
async function journeyHarness(journeys: IndexedJourney[] = [indexedJourney()]) {
  const h = await engineHarness();
  const index: JourneyIndex = { version: 1, journeys };
  // The engine's memory stores share one aggregates object, as the DynamoDB stores share one table.
  h.stores.delivery.aggregates.journeys = {
    indexOf: (clientId) => (clientId === CLIENT_ID ? structuredClone(index) : undefined),
    versionOf: () => undefined,
  };
  return h;
}

const journeyMessages = (h: EngineHarness) => h.queue.sent.filter((m) => m.queue === 'journey');
const wakeOf = (execution: ExecutionRecord) => ({
  queue: 'journey',
  message: {
    client_id: CLIENT_ID,
    run_id: RUN_ID,
    seq: RUN_SEQ,
    contact_id: execution.contact_id,
    execution_id: execution.id,
    journey_id: JOURNEY_ID,
    version: JOURNEY_SEND.journey_version,
  },
});

/** Lets a pending call run up to where it hangs (a lost worker never returns). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("a journey's send step: its journey's category, topic and state (memory ports)", () => {
  it.each([
    ['marketing', { kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'unsubscribed' }],
    ['transactional', { kind: 'finished', status: EXECUTION_STATUS.completed }],
  ] as const)(
    'an unsubscribed contact: a %s journey (its category on the execution, not the catalog) → %o',
    async (category, expected) => {
      // Prepare: categoryOf(1000) would say marketing; only the execution knows the journey's category.
      const h = await journeyHarness([indexedJourney({ settings: { ...indexedJourney().settings, category } })]);
      const ann = await h.contact({
        is_subscribed: false,
        unsubscribed_at: NOW,
        unsubscribe_reason: 'unsubscribe_link',
      });
      const execution = await h.queued(ann, { ...JOURNEY_SEND, category });

      // Act
      const outcome = await h.execute(execution.id);

      // Assess
      expect(outcome).toEqual(expected);
      expect(h.mailer.emails).toHaveLength(category === 'transactional' ? 1 : 0);
    },
  );

  it('a transactional journey sends without one-click unsubscribe headers, a marketing one with them', async () => {
    const h = await journeyHarness();
    const ann = await h.contact();
    const transactional = await h.queued(ann, { ...JOURNEY_SEND, category: 'transactional' });
    const marketing = await h.queued(ann, { ...JOURNEY_SEND, id: transactional.id + 10 });

    await h.execute(transactional.id);
    await h.execute(marketing.id);

    expect(h.mailer.emails[0]).not.toHaveProperty('headers');
    expect(h.mailer.emails[1]).toHaveProperty('headers.List-Unsubscribe-Post', 'List-Unsubscribe=One-Click');
  });

  it("skips a contact that left the journey's topic (the execution's topic_id), and names the topic on the e-mail", async () => {
    // Prepare
    const h = await journeyHarness();
    const topic = await createTopic(h.stores, CLIENT_ID, { name: 'Carts', description: '', default_subscribed: true });
    const left = await h.contact({ [`topic_${topic.id}`]: false } as never);
    const stayed = await h.contact();
    const skipped = await h.queued(left, { ...JOURNEY_SEND, topic_id: topic.id });
    const sent = await h.queued(stayed, { ...JOURNEY_SEND, topic_id: topic.id });

    // Act
    const outcomes = [await h.execute(skipped.id), await h.execute(sent.id)];

    // Assess
    expect(outcomes).toEqual([
      { kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'topic_unsubscribed' },
      { kind: 'finished', status: EXECUTION_STATUS.completed },
    ]);
    const email = await h.stores.sentEmails.get(CLIENT_ID, (await h.execution(sent.id))!.sent_email_id!);
    expect(email).toMatchObject({ topic_id: topic.id, workflow_id: JOURNEY_ID });
  });

  it('a topic id that names no topic any more is no topic: the mail goes', async () => {
    const h = await journeyHarness();
    const ann = await h.contact({ topic_9: false } as never);
    const execution = await h.queued(ann, { ...JOURNEY_SEND, topic_id: 9 });

    expect(await h.execute(execution.id)).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
  });

  it("is not held by enabled_workflows (the 8's rule): the free plan's three workflows do not include it", async () => {
    const h = await journeyHarness();
    const execution = await h.queued(await h.contact(), JOURNEY_SEND);

    expect(await h.execute(execution.id)).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
  });

  it('defers while its journey is paused (journey_paused, looked at again in an hour), waking no run', async () => {
    // Prepare
    const h = await journeyHarness([indexedJourney({ status: 'paused' })]);
    const execution = await h.queued(await h.contact(), JOURNEY_SEND);

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    const later = new Date(Date.parse(NOW) + PAUSED_RECHECK_MS).toISOString();
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.queued,
      reason: JOURNEY_PAUSED,
      scheduled_for: later,
    });
    expect(h.mailer.emails).toHaveLength(0);
    expect(h.scheduler.scheduled).toEqual([
      expect.objectContaining({
        instant: later,
        queue: 'workflow',
        message: { client_id: CLIENT_ID, execution_id: execution.id },
      }),
    ]);
    expect(journeyMessages(h)).toEqual([]);
  });

  it('is cancelled journey_archived when its journey left the index, and wakes its run', async () => {
    const h = await journeyHarness([]);
    const execution = await h.queued(await h.contact(), JOURNEY_SEND);

    const outcome = await h.execute(execution.id);

    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.cancelled, reason: JOURNEY_ARCHIVED });
    expect(h.mailer.emails).toHaveLength(0);
    expect(journeyMessages(h)).toEqual([wakeOf(execution)]);
  });

  it('names a system workflow execution as before: paused journeys and the index do not touch the 8', async () => {
    // The index lists nothing: a workflow execution never looks at it.
    const h = await journeyHarness([]);
    const execution = await h.queued(await h.contact());

    expect(await h.execute(execution.id)).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
  });
});

/** One way an execution ends, acted out from a queued execution of a contact with `fields`. */
type EndingPath = [
  name: string,
  fields: { execution?: Partial<ExecutionRecord>; contact?: Record<string, unknown> },
  act: (h: EngineHarness, execution: ExecutionRecord) => Promise<unknown>,
  status: ExecutionRecord['status'],
];

const ENDING_PATHS: EndingPath[] = [
  ['completed: the send recorded', {}, (h, e) => h.execute(e.id), EXECUTION_STATUS.completed],
  [
    'failed: SES rejected the e-mail',
    {},
    (h, e) => {
      h.mailer.thenReject('MessageRejected');
      return h.execute(e.id);
    },
    EXECUTION_STATUS.failed,
  ],
  [
    'failed: its template is gone',
    { execution: { template_id: 424_242 } },
    (h, e) => h.execute(e.id),
    EXECUTION_STATUS.failed,
  ],
  [
    'skipped: the contact unsubscribed',
    { contact: { is_subscribed: false, unsubscribed_at: NOW, unsubscribe_reason: 'unsubscribe_link' } },
    (h, e) => h.execute(e.id),
    EXECUTION_STATUS.skipped,
  ],
  [
    'cancelled: queued past the queue timeout',
    { execution: { scheduled_for: '2025-12-01T10:00:00.000Z' } },
    (h, e) => h.execute(e.id),
    EXECUTION_STATUS.cancelled,
  ],
  [
    'completed from evidence: the worker died after SES accepted, a notification named the e-mail',
    {},
    async (h, e) => {
      h.mailer.thenLoseWorker(true);
      void h.execute(e.id);
      await settle();
      const email = h.mailer.emails[0]!;
      const at = h.clock.now();
      await h.track(sesNotification({ type: 'Send' }, email, h.mailer.idOf(0), at, at, 'us-east-1'));
      return h.execute(e.id);
    },
    EXECUTION_STATUS.completed,
  ],
  [
    "completed by the stuck sweep's message: the worker died before SES, resent past the lease",
    {},
    async (h, e) => {
      h.mailer.thenLoseWorker(false);
      void h.execute(e.id);
      await settle();
      h.clock.advance(DEFAULT_LEASE_MS + 1_000);
      await sweepStuckExecutions({
        executions: h.stores.executions,
        queue: h.queue,
        clock: h.clock,
        leaseMs: DEFAULT_LEASE_MS,
      });
      return h.execute(e.id);
    },
    EXECUTION_STATUS.completed,
  ],
  [
    'completed on the retry after SES said no (the claim released, retry_pending)',
    {},
    async (h, e) => {
      h.mailer.thenFailBeforeSend(sendingPaused());
      await expect(h.execute(e.id)).rejects.toThrow();
      return h.execute(e.id);
    },
    EXECUTION_STATUS.completed,
  ],
  [
    'a duplicate delivery finding it already ended (the first wake may have been lost)',
    {},
    async (h, e) => {
      await h.execute(e.id);
      h.queue.sent.splice(0);
      return h.execute(e.id);
    },
    EXECUTION_STATUS.completed,
  ],
];

describe('the run wakes after every end of its send step (memory ports)', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(ENDING_PATHS)('%s: exactly one wake with the run seq', async (_name, fields, act, status) => {
    // Prepare
    const h = await journeyHarness();
    const execution = await h.queued(await h.contact(fields.contact), { ...JOURNEY_SEND, ...fields.execution });

    // Act
    await act(h, execution);

    // Assess: ended first, then woken
    expect((await h.execution(execution.id))?.status).toBe(status);
    expect(journeyMessages(h)).toEqual([wakeOf(execution)]);
  });

  it.each(ENDING_PATHS)("%s: a system workflow's execution wakes nothing", async (_name, fields, act, status) => {
    const h = await journeyHarness();
    const execution = await h.queued(await h.contact(fields.contact), fields.execution);

    await act(h, execution);

    expect((await h.execution(execution.id))?.status).toBe(status);
    expect(journeyMessages(h)).toEqual([]);
  });

  it('sends the wake after the ending write: the run reading the execution then finds it ended', async () => {
    const h = await journeyHarness();
    const execution = await h.queued(await h.contact(), JOURNEY_SEND);
    const seenAtWake: (number | undefined)[] = [];
    const send = h.queue.send.bind(h.queue);
    h.queue.send = async <Q extends QueueName>(queue: Q, message: QueueMessages[Q], options?: SendOptions) => {
      if (queue === 'journey') seenAtWake.push((await h.execution(execution.id))?.status);
      return send(queue, message, options);
    };

    await h.execute(execution.id);

    expect(seenAtWake).toEqual([EXECUTION_STATUS.completed]);
  });

  it('a failed wake keeps the ending and fails the message, whose redelivery wakes the run', async () => {
    // Prepare: the journey queue refuses the first wake
    const h = await journeyHarness();
    const execution = await h.queued(await h.contact(), JOURNEY_SEND);
    const send = h.queue.send.bind(h.queue);
    let refusals = 1;
    const wakes: unknown[] = [];
    h.queue.send = async <Q extends QueueName>(queue: Q, message: QueueMessages[Q], options?: SendOptions) => {
      if (queue === 'journey') {
        if (refusals-- > 0) throw new Error('SQS unavailable');
        wakes.push(message);
      }
      return send(queue, message, options);
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    // Act: the first delivery sends and ends, then its wake fails; SQS delivers the message again
    await expect(h.execute(execution.id)).rejects.toThrow('SQS unavailable');
    await h.execute(execution.id);

    // Assess: the e-mail went once, the ending stands, the redelivery woke the run with its seq
    expect(await h.execution(execution.id)).toMatchObject({ status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    expect(wakes).toEqual([expect.objectContaining({ run_id: RUN_ID, seq: RUN_SEQ })]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toMatchObject({
      level: 'WARN',
      run: { run_id: RUN_ID, seq: RUN_SEQ },
      error: 'Error: SQS unavailable',
    });
  });
});
