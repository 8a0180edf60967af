import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../shared/adapters/memory/client-stores.js';
import { MemoryWebhookOutbox } from '../../../../shared/adapters/memory/webhook-outbox.js';
import { MemoryWebhookStore } from '../../../../shared/adapters/memory/webhook-store.js';
import {
  replayWebhookAttempt,
  listWebhookAttempts,
  WEBHOOK_REPLAYS_PER_ATTEMPT,
  WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR,
} from '../../../../shared/domain/webhooks/attempts.js';
import {
  deliverWebhook,
  laneOf,
  SLOW_SUCCESS_MS,
  type ClientNotices,
  type DeliverDeps,
} from '../../../../shared/domain/webhooks/deliver-webhook.js';
import type { WebhookFact } from '../../../../shared/domain/webhooks/facts.js';
import { produceWebhooks } from '../../../../shared/domain/webhooks/produce-webhooks.js';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../../../shared/domain/webhooks/retry-schedule.js';
import type {
  WebhookAttemptOutcome,
  WebhookRequest,
  WebhookSender,
} from '../../../../shared/domain/webhooks/webhook-sender.js';
import type { WebhookRecord } from '../../../../shared/domain/webhooks/webhook-store.js';
import { AppError } from '../../../../shared/errors.js';
import { RecordingQueue, RecordingScheduler } from '../engine/engine-harness.js';

const CLIENT = 7;
const NOW = '2026-01-15T10:00:00.000Z';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OK: WebhookAttemptOutcome = { status_code: 204, duration_ms: 4, response_body: '', error: null };
const DOWN: WebhookAttemptOutcome = { status_code: 503, duration_ms: 9, response_body: 'busy', error: null };

class ScriptedSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  constructor(private readonly outcomes: WebhookAttemptOutcome[]) {}
  async send(request: WebhookRequest): Promise<WebhookAttemptOutcome> {
    this.requests.push(request);
    return this.outcomes.length > 1 ? this.outcomes.shift()! : this.outcomes[0]!;
  }
}

class RecordingNotices implements ClientNotices {
  readonly disabled: { client: number; endpoint: number; since: string }[] = [];
  async webhookDisabled(client: { id: number }, endpoint: { id: number }, failingSince: string): Promise<void> {
    this.disabled.push({ client: client.id, endpoint: endpoint.id, since: failingSince });
  }
}

const endpoint = (id: number, overrides: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id,
  client_id: CLIENT,
  url: `https://hooks.example.com/${id}`,
  description: '',
  event_types: null,
  enabled: true,
  humans_only: false,
  secret: SECRET,
  created_at: NOW,
  updated_at: NOW,
  ...overrides,
});

const sentFact = (logId = 'log-1'): WebhookFact => ({
  kind: 'email',
  type: 'email.sent',
  client_id: CLIENT,
  sent_email_id: 'se-1',
  log: { id: logId, created_at: NOW, status: 2, provider_message_id: 'ses-1' },
});
const botOpen: WebhookFact = {
  kind: 'email',
  type: 'email.opened',
  client_id: CLIENT,
  sent_email_id: 'se-1',
  log: { id: 'open-1', created_at: NOW, status: 4, is_bot: true, bot_reason: 'apple_mpp' },
};

let clock: FixedClock;
let webhooks: MemoryWebhookStore;
let outbox: MemoryWebhookOutbox;
let queue: RecordingQueue;
let scheduler: RecordingScheduler;
let notices: RecordingNotices;

beforeEach(() => {
  clock = new FixedClock(new Date(NOW));
  webhooks = new MemoryWebhookStore();
  outbox = new MemoryWebhookOutbox(webhooks);
  queue = new RecordingQueue();
  scheduler = new RecordingScheduler();
  notices = new RecordingNotices();
  outbox.sentEmailFacts.set(`${CLIENT}:se-1`, {
    id: 'se-1',
    client_id: CLIENT,
    contact_id: 3,
    execution_id: 11,
    workflow_id: 1,
    email_template_id: 1,
    from_email: 'hello@app.example',
    to_email: 'ada@example.com',
    subject: 'Welcome',
    status: 2,
    created_at: NOW,
    event_id: 21,
  });
  outbox.eventFacts.set(`${CLIENT}:21`, {
    id: 21,
    client_id: CLIENT,
    type: 'signup',
    idempotency_key: 'signup-ada',
    created_at: NOW,
  });
});

const deps = (sender: WebhookSender): DeliverDeps => ({
  clock,
  webhooks,
  webhookOutbox: outbox,
  webhookSender: sender,
  queue,
  scheduler,
  clients: {
    get: async (id: number) => ({ id, email: 'owner@client.example', name: 'Client' }),
  } as unknown as DeliverDeps['clients'],
  clientNotices: notices,
});

describe('producing webhook messages from facts', () => {
  it('costs nothing for a client without an endpoint that takes the fact', async () => {
    await webhooks.create(endpoint(1, { event_types: ['contact.unsubscribed'] }), 10);
    await webhooks.create(endpoint(2, { enabled: false }), 10);

    const outcome = await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact()]);

    expect(outcome).toEqual({ facts: 1, messages: 0, deliveries: 0 });
    expect(outbox.messages.size).toBe(0);
    expect(queue.sent).toEqual([]);
  });

  it('stores one message a fact, with the ids and the idempotency key, and one delivery per endpoint that takes it', async () => {
    await webhooks.create(endpoint(1), 10);
    await webhooks.create(endpoint(2, { event_types: ['email.sent'] }), 10);
    await webhooks.create(endpoint(3, { humans_only: true }), 10);

    const outcome = await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact(), botOpen]);

    // email.sent → 1, 2, 3; the bot open → 1 only (3 takes humans only, 2 only email.sent).
    expect(outcome).toEqual({ facts: 2, messages: 2, deliveries: 4 });
    expect(queue.batches).toBe(1);
    const [sent] = [...outbox.messages.values()].filter((m) => m.type === 'email.sent');
    expect(JSON.parse(sent!.payload)).toEqual({
      type: 'email.sent',
      id: sent!.id,
      created_at: NOW,
      data: {
        sent_email_id: 'se-1',
        status: 'sent',
        occurred_at: NOW,
        execution_id: 11,
        workflow_id: 1,
        contact_id: 3,
        email_template_id: 1,
        from_email: 'hello@app.example',
        to_email: 'ada@example.com',
        subject: 'Welcome',
        provider_message_id: 'ses-1',
        sent_email_created_at: NOW,
        event: { id: 21, idempotency_key: 'signup-ada', type: 'signup' },
      },
    });
    expect(queue.sent.map((s) => [s.queue, (s.message as { webhook_id: number }).webhook_id]).sort()).toEqual([
      ['webhooks', 1],
      ['webhooks', 1],
      ['webhooks', 2],
      ['webhooks', 3],
    ]);
  });

  it('gives the same fact the same message id when a stream batch is read again', async () => {
    await webhooks.create(endpoint(1), 10);
    await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact()]);
    await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact()]);
    await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact('log-2')]);

    const ids = queue.sent.map((s) => (s.message as { message_id: string }).message_id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(ids[0]).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});

describe('delivering a webhook message', () => {
  async function produced(hook: Partial<WebhookRecord> = {}) {
    await webhooks.create(endpoint(1, hook), 10);
    await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact()]);
    const first = queue.sent.pop()!.message as {
      client_id: number;
      webhook_id: number;
      message_id: string;
      attempt: number;
    };
    return first;
  }

  it('POSTs the stored body signed as Standard Webhooks, logs the attempt and changes nothing else on success', async () => {
    const message = await produced();
    const sender = new ScriptedSender([OK]);
    clock = new FixedClock(new Date()); // receivers refuse a webhook-timestamp more than 5 minutes off their clock

    const outcome = await deliverWebhook(deps(sender), message);

    expect(outcome.kind).toBe('delivered');
    const request = sender.requests[0]!;
    expect(new Webhook(SECRET).verify(request.body, request.headers)).toMatchObject({
      type: 'email.sent',
      id: message.message_id,
    });
    expect(request.headers['webhook-id']).toBe(message.message_id);
    expect(outbox.attemptLog).toEqual([
      expect.objectContaining({
        attempt: 1,
        succeeded: true,
        status_code: 204,
        next_attempt_at: null,
        message_id: message.message_id,
      }),
    ]);
    expect(queue.sent).toEqual([]);
    expect((await webhooks.get(CLIENT, 1))!.failing_since).toBeUndefined();
  });

  it('retries on the failing lane: SQS delays up to 15 minutes, the scheduler beyond, and gives up after the 8th attempt', async () => {
    const message = await produced();
    const sender = new ScriptedSender([DOWN]);
    let current = message;
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      const lane = attempt === 1 ? 'healthy' : 'failing';
      const outcome = await deliverWebhook(deps(sender), current, lane);
      if (attempt < 8) {
        expect(outcome.kind).toBe('retrying');
        const delay = WEBHOOK_RETRY_DELAYS_SECONDS[attempt - 1]!;
        const viaQueue = queue.sent.at(-1);
        const viaScheduler = scheduler.scheduled.at(-1);
        if (delay <= 900) {
          expect(viaQueue).toMatchObject({
            queue: 'webhooks-failing',
            message: { attempt: attempt + 1 },
            options: { delaySeconds: delay },
          });
          current = viaQueue!.message as typeof message;
        } else {
          expect(viaScheduler).toMatchObject({
            queue: 'webhooks-failing',
            message: { attempt: attempt + 1 },
            instant: new Date(clock.now().getTime() + delay * 1000).toISOString(),
          });
          current = viaScheduler!.message as typeof message;
        }
        clock.advance(delay * 1000);
      } else {
        expect(outcome).toMatchObject({ kind: 'failed', disabled: false });
      }
    }
    expect(sender.requests).toHaveLength(8);
    expect(outbox.attemptLog.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(outbox.attemptLog.at(-1)!.next_attempt_at).toBeNull();
    expect(queue.sent.filter((s) => s.options?.delaySeconds !== undefined).map((s) => s.options!.delaySeconds)).toEqual(
      [5, 300],
    );
    expect(scheduler.scheduled).toHaveLength(5);
  });

  it('moves a delivery to a failing endpoint to the failing lane without a POST, and a success there clears the failure', async () => {
    const message = await produced({ failing_since: '2026-01-15T09:00:00.000Z' });
    const sender = new ScriptedSender([OK]);

    const moved = await deliverWebhook(deps(sender), message, 'healthy');
    const delivered = await deliverWebhook(deps(sender), queue.sent.at(-1)!.message as typeof message, 'failing');

    expect(moved).toEqual({ kind: 'moved_to_failing_lane' });
    expect(queue.sent[0]).toMatchObject({ queue: 'webhooks-failing', message });
    expect(sender.requests).toHaveLength(1);
    expect(delivered.kind).toBe('delivered');
    expect((await webhooks.get(CLIENT, 1))!.failing_since).toBeUndefined();
  });

  it('disables an endpoint failing every attempt for 5 days, once, and tells its client (fake clock)', async () => {
    const message = await produced();
    const sender = new ScriptedSender([DOWN]);

    await deliverWebhook(deps(sender), message); // failing from now
    clock.advance(5 * 86_400_000 - 1);
    const justBefore = await deliverWebhook(deps(sender), { ...message, attempt: 2 }, 'failing');
    clock.advance(1);
    const atFiveDays = await deliverWebhook(deps(sender), { ...message, attempt: 3 }, 'failing');
    const afterwards = await deliverWebhook(deps(sender), { ...message, attempt: 4 }, 'failing');

    expect(justBefore).toMatchObject({ kind: 'retrying' });
    expect(atFiveDays).toMatchObject({ kind: 'retrying' });
    expect(afterwards).toEqual({ kind: 'dropped', reason: 'endpoint_disabled' });
    expect(await webhooks.get(CLIENT, 1)).toMatchObject({
      enabled: false,
      disabled_reason: 'failing',
      failing_since: NOW,
    });
    expect(notices.disabled).toEqual([{ client: CLIENT, endpoint: 1, since: NOW }]);
    expect((await webhooks.get(CLIENT, 1))!.disabled_notice_pending).toBeUndefined();
  });

  it('sends the disable e-mail again when it failed: the redelivery finds the endpoint disabled and owed a notice, once', async () => {
    const message = await produced();
    const sender = new ScriptedSender([DOWN]);
    await deliverWebhook(deps(sender), message); // failing from now
    clock.advance(5 * 86_400_000);
    const failingMail = notices.webhookDisabled.bind(notices);
    notices.webhookDisabled = async () => {
      throw new Error('SES is down');
    };

    const first = await deliverWebhook(deps(sender), { ...message, attempt: 2 }, 'failing').then(
      () => 'returned',
      (error: Error) => error.message,
    );
    const owed = await webhooks.get(CLIENT, 1);
    notices.webhookDisabled = failingMail;
    const redelivered = await deliverWebhook(deps(sender), { ...message, attempt: 2 }, 'failing');
    const later = await deliverWebhook(deps(sender), { ...message, attempt: 3 }, 'failing');

    expect(first).toBe('SES is down');
    expect(owed).toMatchObject({ enabled: false, disabled_notice_pending: true });
    expect(redelivered).toEqual({ kind: 'dropped', reason: 'endpoint_disabled' });
    expect(later).toEqual({ kind: 'dropped', reason: 'endpoint_disabled' });
    expect(notices.disabled).toEqual([{ client: CLIENT, endpoint: 1, since: NOW }]);
    expect((await webhooks.get(CLIENT, 1))!.disabled_notice_pending).toBeUndefined();
    expect(sender.requests).toHaveLength(2);
  });

  it('drops a delivery whose endpoint was deleted or whose message expired', async () => {
    const message = await produced();
    await webhooks.delete(CLIENT, 1);
    expect(await deliverWebhook(deps(new ScriptedSender([OK])), message)).toEqual({
      kind: 'dropped',
      reason: 'endpoint_missing',
    });
    await webhooks.create(endpoint(1), 10);
    outbox.messages.clear();
    expect(await deliverWebhook(deps(new ScriptedSender([OK])), message)).toEqual({
      kind: 'dropped',
      reason: 'message_missing',
    });
  });
});

describe('the attempts log and replay', () => {
  it('lists attempts newest first, pages them, and replays one as attempt 1 of a new chain; another client gets 404', async () => {
    await webhooks.create(endpoint(1), 10);
    await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact()]);
    const message = queue.sent.pop()!.message as {
      client_id: number;
      webhook_id: number;
      message_id: string;
      attempt: number;
    };
    await deliverWebhook(deps(new ScriptedSender([DOWN])), message);
    clock.advance(5_000);
    await deliverWebhook(deps(new ScriptedSender([OK])), { ...message, attempt: 2 }, 'failing');
    queue.sent.length = 0;

    const page1 = await listWebhookAttempts({ webhooks, webhookOutbox: outbox }, CLIENT, 1, { limit: 1 });
    const page2 = await listWebhookAttempts({ webhooks, webhookOutbox: outbox }, CLIENT, 1, {
      limit: 1,
      starting_after: page1.next_starting_after!,
    });
    const replay = await replayWebhookAttempt(
      { webhooks, webhookOutbox: outbox, queue, clock },
      CLIENT,
      1,
      page2.attempts[0]!.id,
    );

    expect(page1).toMatchObject({ has_more: true, attempts: [{ attempt: 2, succeeded: true }] });
    expect(page2).toMatchObject({
      has_more: false,
      next_starting_after: null,
      attempts: [{ attempt: 1, succeeded: false, status_code: 503, response_body: 'busy' }],
    });
    expect(replay).toEqual({ message_id: message.message_id, webhook_id: 1, queued: true });
    expect(queue.sent).toEqual([{ queue: 'webhooks', message: { ...message, attempt: 1, replay: true } }]);
    const foreign = await replayWebhookAttempt(
      { webhooks, webhookOutbox: outbox, queue, clock },
      8,
      1,
      page2.attempts[0]!.id,
    ).catch((e: AppError) => e);
    expect(foreign).toBeInstanceOf(AppError);
    expect((foreign as AppError).status).toBe(404);
  });
});

describe('the lane of a slow endpoint', () => {
  const SLOW: WebhookAttemptOutcome = { status_code: 200, duration_ms: 9_900, response_body: '', error: null };

  async function producedFor(hook: Partial<WebhookRecord> = {}) {
    await webhooks.create(endpoint(1, hook), 10);
    await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact()]);
    return queue.sent.pop()!.message as { client_id: number; webhook_id: number; message_id: string; attempt: number };
  }

  it.each([
    [{}, 'healthy'],
    [{ failing_since: NOW }, 'failing'],
    [{ slow_since: NOW }, 'failing'],
    [{ failing_since: NOW, slow_since: NOW }, 'failing'],
  ] as const)('serves an endpoint %j on the %s lane', (state, lane) => {
    expect(laneOf(state)).toBe(lane);
  });

  it('counts a success slower than SLOW_SUCCESS_MS against its endpoint: its next delivery moves to the degraded lane', async () => {
    // Prepare
    const message = await producedFor();
    const sender = new ScriptedSender([SLOW]);

    // Act
    const slow = await deliverWebhook(deps(sender), message, 'healthy');
    const next = await deliverWebhook(deps(sender), { ...message }, 'healthy');

    // Assess
    expect(slow.kind).toBe('delivered');
    expect((await webhooks.get(CLIENT, 1))!.slow_since).toBe(NOW);
    expect(next).toEqual({ kind: 'moved_to_failing_lane' });
    expect(queue.sent).toEqual([{ queue: 'webhooks-failing', message }]);
    expect(sender.requests).toHaveLength(1);
  });

  it('takes a success at the threshold as prompt', async () => {
    const message = await producedFor();
    await deliverWebhook(deps(new ScriptedSender([{ ...OK, duration_ms: SLOW_SUCCESS_MS }])), message, 'healthy');
    expect((await webhooks.get(CLIENT, 1))!.slow_since).toBeUndefined();
  });

  it('brings a slow endpoint back to the shared lane after a prompt success, and keeps the first slow time while slow', async () => {
    const message = await producedFor({ slow_since: '2026-01-15T09:00:00.000Z' });

    await deliverWebhook(deps(new ScriptedSender([SLOW])), message, 'failing');
    expect((await webhooks.get(CLIENT, 1))!.slow_since).toBe('2026-01-15T09:00:00.000Z');
    await deliverWebhook(deps(new ScriptedSender([OK])), message, 'failing');

    expect((await webhooks.get(CLIENT, 1))!.slow_since).toBeUndefined();
    expect(await deliverWebhook(deps(new ScriptedSender([OK])), message, 'healthy')).toMatchObject({
      kind: 'delivered',
    });
  });

  it('records a failing endpoint that recovers slowly as slow: it stays on the degraded lane', async () => {
    const message = await producedFor({ failing_since: '2026-01-15T09:00:00.000Z' });

    await deliverWebhook(deps(new ScriptedSender([SLOW])), message, 'failing');

    const stored = (await webhooks.get(CLIENT, 1))!;
    expect(stored.failing_since).toBeUndefined();
    expect(stored.slow_since).toBe(NOW);
    expect(laneOf(stored)).toBe('failing');
  });
});

describe('replay caps', () => {
  async function oneAttempt() {
    await webhooks.create(endpoint(1), 10);
    await produceWebhooks({ webhookOutbox: outbox, queue }, [sentFact()]);
    const message = queue.sent.pop()!.message as {
      client_id: number;
      webhook_id: number;
      message_id: string;
      attempt: number;
    };
    await deliverWebhook(deps(new ScriptedSender([OK])), message);
    return outbox.attemptLog[0]!.id;
  }
  const replay = (attemptId: string) =>
    replayWebhookAttempt({ webhooks, webhookOutbox: outbox, queue, clock }, CLIENT, 1, attemptId).catch(
      (e: AppError) => e,
    );

  it(`queues ${WEBHOOK_REPLAYS_PER_ATTEMPT} replays of an attempt, then answers 409 max at attempt_id and queues nothing`, async () => {
    const attemptId = await oneAttempt();
    queue.sent.length = 0;

    const answers = [];
    for (let i = 0; i <= WEBHOOK_REPLAYS_PER_ATTEMPT; i++) answers.push(await replay(attemptId));

    expect(answers.slice(0, -1)).toEqual(
      Array(WEBHOOK_REPLAYS_PER_ATTEMPT).fill(expect.objectContaining({ queued: true })),
    );
    const refused = answers.at(-1) as AppError;
    expect(refused).toBeInstanceOf(AppError);
    expect({ status: refused.status, items: refused.items }).toMatchObject({
      status: 409,
      items: [{ condition: 'max', key: 'attempt_id' }],
    });
    expect(queue.sent).toHaveLength(WEBHOOK_REPLAYS_PER_ATTEMPT);
  });

  it(`answers 409 max at id past ${WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR} replays of the endpoint in one UTC hour, and counts afresh the next hour`, async () => {
    const attemptId = await oneAttempt();
    const hour = Math.floor(clock.now().getTime() / 3_600_000) * 3600;
    outbox.replayCounts.set(`${CLIENT}:1:@${hour}`, WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR);

    const refused = (await replay(attemptId)) as AppError;
    clock.advance(3_600_000);
    const nextHour = await replay(attemptId);

    expect({ status: refused.status, items: refused.items }).toMatchObject({
      status: 409,
      items: [{ condition: 'max', key: 'id' }],
    });
    expect(refused.items[0]!.error).toContain('2026-01-15T11:00:00.000Z');
    expect(nextHour).toMatchObject({ queued: true });
  });
});
