import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { ingestEvent } from '../../../shared/domain/events/ingest-event.js';
import { eventProcessingDeps } from '../../../shared/domain/events/create-event.js';
import { processEvent } from '../../../shared/domain/events/process-event.js';
import { EventBody } from '../../../shared/domain/events/schemas.js';
import { executeWorkflow } from '../../../shared/domain/executions/execute-workflow.js';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import type { MailSendResult, OutboundEmail } from '../../../shared/platform.js';
import { createTestClient } from '../support/clients.js';
import {
  addContact,
  engineContainer,
  engineDeps,
  executionsOf,
  FakeMailer,
  patchSettings,
  quotaCounter,
  RecordingQueue,
  RecordingScheduler,
  type EngineDeps,
} from '../support/engine-components.js';

const START = Date.parse('2031-03-04T10:00:00.000Z');
const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Goals on DynamoDB Local: the exit's cancellation inside the processing transaction, the send-time check
 * and the claim's condition on the contact, and what each costs in DynamoDB requests (processing budget ≤ 5 an event,
 * a send 5 + 1).
 */
async function setup(enabled: number[]) {
  let now = START;
  const clock = { now: () => new Date(now) };
  const mailer = new FakeMailer();
  const scheduler = new RecordingScheduler();
  const container = engineContainer({ queue: new RecordingQueue(), scheduler, mailer, clock });
  const deps = engineDeps(container);
  const client = await createTestClient();
  await patchSettings(deps, client.id, { enabled_workflows: enabled });
  const email = `goal-${randomUUID().slice(0, 8)}@example.com`;
  const contactId = await addContact(deps, client.id, { email });
  const counter = container.requestCounter;
  return {
    deps,
    mailer,
    scheduler,
    clientId: client.id,
    contactId,
    advance: (ms: number) => (now += ms),
    /** Ingests the event a minute later, then processes it; the processing's DynamoDB requests by command. */
    async happen(body: Record<string, unknown>, d: EngineDeps = deps) {
      now += MINUTE;
      const raw = { ...body, email };
      const ingested = await ingestEvent(d, client.id, EventBody.parse(raw), raw, 'async');
      const { result, usage } = await counter.measure(() =>
        processEvent(eventProcessingDeps(d), client.id, ingested.event.id),
      );
      return { event: result!, requests: usage.by_command, total: usage.requests };
    },
    async execute(executionId: number, d: EngineDeps = deps) {
      const { result, usage } = await counter.measure(() => executeWorkflow(d, client.id, executionId));
      return { outcome: result, requests: usage.by_command, total: usage.requests };
    },
    async contactItem() {
      const { db, tableName } = tableOf(container);
      return (
        await db.send(
          new GetCommand({ TableName: tableName, Key: keys.contact(client.id, contactId), ConsistentRead: true }),
        )
      ).Item!;
    },
  };
}

const openEntries = (item: Record<string, unknown>) => Object.keys(item).filter((name) => name.startsWith('open_'));

describe('goals and exits on DynamoDB', () => {
  it("cancels the queued win-back inside the exit event's processing transaction: 4 requests, no more than any event", async () => {
    // Prepare
    const t = await setup([6]);
    const cancelled = await t.happen({ type: 'subscription_cancelled' });
    const winback = (await executionsOf(t.deps, cancelled.event)).get(6)!;
    expect(openEntries(await t.contactItem())).toEqual([`open_${winback.id}`]);
    expect(cancelled.total).toBe(4);

    // Act
    const reactivated = await t.happen({ type: 'subscription_reactivated' });

    // Assess
    expect(reactivated.requests).toEqual({ GetItemCommand: 2, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(await t.deps.executions.get(t.clientId, winback.id)).toMatchObject({
      status: EXECUTION_STATUS.cancelled,
      reason: 'goal_reached',
      goal_event_id: reactivated.event.id,
    });
    const contact = await t.contactItem();
    expect(openEntries(contact)).toEqual([]);
    expect(contact['active_workflow_count']).toBe(0);
    expect(contact['goal_w6']).toEqual({ at: reactivated.event.processed_at, event_id: reactivated.event.id });
    // The schedule fires later and finds nothing to do: one read.
    t.advance(3 * DAY);
    expect(await t.execute(winback.id)).toMatchObject({ outcome: { kind: 'duplicate' }, total: 1 });
    expect(t.mailer.sent).toEqual([]);
  });

  it("a send is still 5 requests + 1 SES with the claim's condition on the contact", async () => {
    const t = await setup([3]);
    const trial = await t.happen({ type: 'trial_ending' });
    const reminder = (await executionsOf(t.deps, trial.event)).get(3)!;

    const run = await t.execute(reminder.id);

    expect(run.outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(run.requests).toEqual({
      GetItemCommand: 1,
      BatchGetItemCommand: 1,
      UpdateItemCommand: 1,
      TransactWriteItemsCommand: 2,
    });
    expect(openEntries(await t.contactItem())).toEqual([]);

    // A conversion: the exit within the window after the send is counted in the exit's commit (still 4 requests), once.
    t.advance(DAY);
    const upgrade = await t.happen({ type: 'upgrade' });
    const again = await t.happen({ type: 'upgrade' });
    expect(upgrade.requests).toEqual({ GetItemCommand: 2, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(again.total).toBe(4);
    const contact = await t.contactItem();
    expect(contact['conv_w3']).toBe(contact['sent_w3']);
    expect(typeof contact['sent_w3']).toBe('string');
  });

  it("fault: the exit's cancel misses the execution (a contact read racing the trigger's commit) — the send-time check stops it", async () => {
    // Prepare: processing reads the contact without its listed executions.
    const t = await setup([6]);
    const cancelled = await t.happen({ type: 'subscription_cancelled' });
    const winback = (await executionsOf(t.deps, cancelled.event)).get(6)!;
    const loadContext = t.deps.processing.loadContext.bind(t.deps.processing);
    const blind: EngineDeps = {
      ...t.deps,
      processing: {
        ...t.deps.processing,
        findContactId: t.deps.processing.findContactId.bind(t.deps.processing),
        commit: t.deps.processing.commit.bind(t.deps.processing),
        loadContext: async (...args) => {
          const context = await loadContext(...args);
          const contact = Object.fromEntries(
            Object.entries(context.contact!).filter(([name]) => !name.startsWith('open_')),
          );
          return { ...context, contact: contact as typeof context.contact };
        },
      },
    };
    const reactivated = await t.happen({ type: 'subscription_reactivated' }, blind);
    expect((await t.deps.executions.get(t.clientId, winback.id))?.status).toBe(EXECUTION_STATUS.queued);

    // Act: the win-back comes due.
    t.advance(3 * DAY);
    const run = await t.execute(winback.id);

    // Assess: read, load, the cancelling transaction; nothing sent.
    expect(run.outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.cancelled, reason: 'goal_reached' });
    expect(run.requests).toEqual({ GetItemCommand: 1, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(await t.deps.executions.get(t.clientId, winback.id)).toMatchObject({ goal_event_id: reactivated.event.id });
    expect(t.mailer.sent).toEqual([]);
    expect(openEntries(await t.contactItem())).toEqual([]);
  });

  it("an exit landing between the send's read and its claim cancels the claim on its contact condition; the quota goes back", async () => {
    // Prepare: the exit event is processed right after the executor loaded the contact (the claim not yet made).
    const t = await setup([3]);
    const trial = await t.happen({ type: 'trial_ending' });
    const reminder = (await executionsOf(t.deps, trial.event)).get(3)!;
    let upgradeId: number | undefined;
    const load = t.deps.delivery.load.bind(t.deps.delivery);
    const racing: EngineDeps = {
      ...t.deps,
      delivery: Object.assign(Object.create(Object.getPrototypeOf(t.deps.delivery)), t.deps.delivery, {
        load: async (execution: Parameters<typeof load>[0]) => {
          const context = await load(execution);
          if (upgradeId === undefined) {
            // Listed as claimed already would be: processing skips it (the goal mark alone moves), via a blind read.
            const loadContext = t.deps.processing.loadContext.bind(t.deps.processing);
            const blind: EngineDeps = {
              ...t.deps,
              processing: {
                findContactId: t.deps.processing.findContactId.bind(t.deps.processing),
                commit: t.deps.processing.commit.bind(t.deps.processing),
                loadContext: async (...args) => {
                  const c = await loadContext(...args);
                  return {
                    ...c,
                    contact: Object.fromEntries(
                      Object.entries(c.contact!).filter(([n]) => !n.startsWith('open_')),
                    ) as typeof c.contact,
                  };
                },
              },
            };
            upgradeId = (await t.happen({ type: 'upgrade' }, blind)).event.id;
          }
          return context;
        },
      }),
    };

    // Act
    const { outcome } = await t.execute(reminder.id, racing);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.cancelled, reason: 'goal_reached' });
    expect(await t.deps.executions.get(t.clientId, reminder.id)).toMatchObject({ goal_event_id: upgradeId });
    expect(t.mailer.sent).toEqual([]);
    expect(await quotaCounter(t.deps, t.clientId, new Date(START))).toEqual({ month: 0, day: 0 });
  });

  it('an execution already claimed goes out; the exit event finds it moved on and commits once more without it (5 requests)', async () => {
    // Prepare: the exit event is processed while SES holds the reminder (claimed, status 2).
    const t = await setup([3]);
    const trial = await t.happen({ type: 'trial_ending' });
    const reminder = (await executionsOf(t.deps, trial.event)).get(3)!;
    let exit: Awaited<ReturnType<typeof t.happen>> | undefined;
    const send = t.mailer.send.bind(t.mailer);
    t.mailer.send = async (email: OutboundEmail): Promise<MailSendResult> => {
      exit = await t.happen({ type: 'upgrade' });
      return send(email);
    };

    // Act
    const { outcome } = await t.execute(reminder.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(t.mailer.sent).toHaveLength(1);
    expect(exit!.requests).toEqual({ GetItemCommand: 2, BatchGetItemCommand: 1, TransactWriteItemsCommand: 2 });
    expect(exit!.event).toMatchObject({ queue_status: 'processed' });
    const contact = await t.contactItem();
    expect(contact['goal_w3']).toMatchObject({ event_id: exit!.event.id });
    expect(openEntries(contact)).toEqual([]);
    expect(contact['active_workflow_count']).toBe(0);
  });
});
