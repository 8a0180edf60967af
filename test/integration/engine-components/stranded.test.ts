import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { sesNotification } from '../../../local/engine/ses-notifications.js';
import { executeWorkflow, sentEmailIdOf } from '../../../shared/domain/executions/execute-workflow.js';
import type { ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';
import { CONFIRMED_BY_NOTIFICATION, RESENT_WITHOUT_EVIDENCE } from '../../../shared/domain/executions/settle-claim.js';
import { sweepStuckExecutions } from '../../../shared/domain/executions/sweep-executions.js';
import { trackNotification } from '../../../shared/domain/tracking/track-notification.js';
import type { Clock, MailSendResult, Mailer, OutboundEmail } from '../../../shared/platform.js';
import { clientStore } from '../../../shared/composition/providers/client-store.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import {
  dayCapCount,
  engineContainer,
  engineDeps,
  executionsOf,
  ingestAndProcess,
  quotaCounter,
  RecordingQueue,
  RecordingScheduler,
  type EngineDeps,
} from '../support/engine-components.js';

vi.hoisted(() => {
  process.env['POWERTOOLS_LOG_LEVEL'] = process.env['INTEGRATION_LOG_LEVEL'] ?? 'SILENT';
});

/** A future instant of this file's own: its quota and day-cap counters are nobody else's. */
const START = Date.parse('2031-03-10T09:00:00.000Z');
const LEASE_MS = 600_000;

class MovingClock implements Clock {
  constructor(private at = START) {}
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

/**
 * SES as the executor meets it when things go wrong: `accepted` holds what SES took. The next call may lose its
 * worker (never returns), or answer with a reset after accepting, or with a 500 before accepting.
 */
class TroubledSes implements Mailer {
  readonly accepted: (OutboundEmail & { providerMessageId: string })[] = [];
  readonly next: ('lose-after-accept' | 'reset-after-accept' | 'error-500')[] = [];

  async send(email: OutboundEmail): Promise<MailSendResult> {
    const trouble = this.next.shift();
    if (trouble === 'error-500') {
      throw Object.assign(new Error('Internal failure'), {
        name: 'InternalServiceErrorException',
        $metadata: { httpStatusCode: 500 },
      });
    }
    const providerMessageId = `ses-${randomUUID()}`;
    this.accepted.push({ ...email, providerMessageId });
    if (trouble === 'lose-after-accept') return new Promise<MailSendResult>(() => {});
    if (trouble === 'reset-after-accept') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    return { kind: 'sent', providerMessageId };
  }
}

interface Setup {
  deps: EngineDeps;
  clock: MovingClock;
  ses: TroubledSes;
  queue: RecordingQueue;
  welcome: ExecutionRecord;
}

async function queuedWelcome(): Promise<Setup> {
  const clock = new MovingClock();
  const ses = new TroubledSes();
  const queue = new RecordingQueue();
  const deps = {
    ...engineDeps(engineContainer({ queue, scheduler: new RecordingScheduler(), mailer: ses, clock })),
    leaseMs: LEASE_MS,
  };
  const client = await createTestClient();
  const event = await ingestAndProcess(deps, client.id, {
    type: 'signup',
    email: `stranded-${randomUUID().slice(0, 8)}@example.com`,
    auto_create_contact: true,
  });
  return { deps, clock, ses, queue, welcome: (await executionsOf(deps, event)).get(1)! };
}

/** SES's Send notification of the `index`-th accepted e-mail, through the status pipeline (ses-status). */
async function notifySend({ deps, ses, clock, queue }: Setup, index = 0) {
  const mail = ses.accepted[index]!;
  const body = sesNotification({ type: 'Send' }, mail, mail.providerMessageId, clock.now(), clock.now(), 'us-east-1');
  const { clients } = deps.container.resolve([clientStore]);
  return trackNotification({ tracking: deps.tracking, clients, clock, queue }, body);
}

/** Until SES has accepted the lost worker's e-mail (the worker then hangs for good). */
const accepted = (ses: TroubledSes) =>
  eventually('SES to accept the e-mail', async () => (ses.accepted.length > 0 ? true : undefined));

describe('stranded claims on the real DynamoDB adapters', () => {
  it('completes from the Send notification when the worker died after SES accepted: woken at once, no second e-mail', async () => {
    // Prepare
    const setup = await queuedWelcome();
    const { deps, ses, queue, welcome } = setup;
    ses.next.push('lose-after-accept');
    void executeWorkflow(deps, welcome.client_id, welcome.id);
    await accepted(ses);

    // Act
    const tracked = await notifySend(setup);
    const woken = queue.sent.filter((m) => m.queue === 'workflow').at(-1);
    const outcome = await executeWorkflow(deps, welcome.client_id, welcome.id);

    // Assess
    expect(tracked).toMatchObject({ kind: 'recorded' });
    expect(woken?.message).toEqual({ client_id: welcome.client_id, execution_id: welcome.id });
    expect(outcome).toEqual({ kind: 'finished', status: 3, reason: CONFIRMED_BY_NOTIFICATION });
    expect(ses.accepted).toHaveLength(1);
    const sent = await deps.sentEmails.get(welcome.client_id, sentEmailIdOf(welcome));
    expect(sent?.provider_message_id).toBe(ses.accepted[0]!.providerMessageId);
    expect(await deps.tracking.findMessage(ses.accepted[0]!.providerMessageId)).toMatchObject({
      sent_email_id: sentEmailIdOf(welcome),
    });
    expect(await quotaCounter(deps, welcome.client_id, new Date(START))).toEqual({ month: 1, day: 1 });
    expect(await dayCapCount(deps, welcome)).toBe(1);
  });

  it('keeps the claim after a reset; with no notification the delivery inside the lease waits, the one after it sends once', async () => {
    // Prepare: SES took nothing and answered 500 — the executor cannot know that
    const { deps, clock, ses, queue, welcome } = await queuedWelcome();
    ses.next.push('error-500');

    // Act
    const first = await executeWorkflow(deps, welcome.client_id, welcome.id);
    const marked = await deps.executions.get(welcome.client_id, welcome.id);
    clock.advance(180_000);
    const redelivered = await executeWorkflow(deps, welcome.client_id, welcome.id);
    const delayed = queue.sent.filter((m) => m.queue === 'workflow').at(-1);
    clock.advance(LEASE_MS);
    const [a, b] = await Promise.all([
      executeWorkflow(deps, welcome.client_id, welcome.id),
      executeWorkflow(deps, welcome.client_id, welcome.id),
    ]);

    // Assess
    expect(first).toEqual({ kind: 'waiting' });
    expect(marked).toMatchObject({
      status: 2,
      outcome_unknown: true,
      reason: 'send_outcome_unknown: InternalServiceErrorException',
    });
    expect(redelivered).toEqual({ kind: 'waiting' });
    expect(delayed?.delaySeconds).toBe((LEASE_MS - 180_000) / 1000 + 1);
    expect([a, b]).toEqual(expect.arrayContaining([{ kind: 'finished', status: 3 }, { kind: 'duplicate' }]));
    expect(ses.accepted).toHaveLength(1);
    expect(await deps.executions.get(welcome.client_id, welcome.id)).toMatchObject({
      status: 3,
      reason: RESENT_WITHOUT_EVIDENCE,
      attempt: 2,
    });
    expect(await quotaCounter(deps, welcome.client_id, new Date(START))).toEqual({ month: 1, day: 1 });
    expect(await dayCapCount(deps, welcome)).toBe(1);
    const logs = (await deps.sentEmails.getWithLogs(welcome.client_id, sentEmailIdOf(welcome)))?.logs ?? [];
    expect(logs.map((l) => l.status).sort()).toEqual([1, 2]);
  });

  it('finds a claim past its lease through the stuck-execution index and sends it back; none once it ended', async () => {
    // Prepare: a worker lost after SES accepted, and nothing else happened
    const setup = await queuedWelcome();
    const { deps, clock, ses, welcome } = setup;
    ses.next.push('lose-after-accept');
    void executeWorkflow(deps, welcome.client_id, welcome.id);
    await accepted(ses);
    clock.advance(LEASE_MS + 1_000);
    const swept = new RecordingQueue();
    const sweep = () => sweepStuckExecutions({ executions: deps.executions, queue: swept, clock, leaseMs: LEASE_MS });

    // Act
    const found = await sweep();
    const mine = swept.sent.filter(
      (m) => JSON.stringify(m.message) === JSON.stringify({ client_id: welcome.client_id, execution_id: welcome.id }),
    );
    await notifySend(setup);
    const outcome = await executeWorkflow(deps, welcome.client_id, welcome.id);
    swept.sent.length = 0;
    await sweep();

    // Assess
    expect(found.enqueued).toBeGreaterThanOrEqual(1);
    expect(mine).toHaveLength(1);
    expect(outcome).toEqual({ kind: 'finished', status: 3, reason: CONFIRMED_BY_NOTIFICATION });
    expect(swept.sent.map((m) => m.message)).not.toContainEqual({
      client_id: welcome.client_id,
      execution_id: welcome.id,
    });
  });
});
