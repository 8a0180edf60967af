import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import type { RunRecord } from '../../../shared/domain/runs/run-record.js';
import { createTestClient } from '../support/clients.js';
import { abandonCartsAAndB, awaitRun, publishJourney, runOf, sendSyncEvent } from '../support/journeys.js';
import { type ExecutionItem, listExecutions } from '../support/executions.js';
import { awaitSesMailsTo, sesMailsTo } from '../support/ses-mailbox.js';

/**
 * The checkout wait's timeout. A journey minute lasts `journeyMinuteMs` here (a second), so this is 10 s: cart A's
 * nudge, its arrival in the SES store and A's checkout must all fit before A's own timeout (the cart test found 10 s
 * about three times what such checks take on a loaded 2-core machine).
 */
const TIMEOUT_MINUTES = 10;
const timeoutMs = TIMEOUT_MINUTES * inject('journeyMinuteMs');

/** System templates 1 (Welcome) and 2 (Onboarding tips): the nudge and the reminder, told apart by subject. */
const NUDGE_SUBJECT = /^Welcome to /;
const REMINDER_SUBJECT = /^3 tips to get more out of /;

/** Three steps keyed on the cart: a first nudge, a wait for that cart's checkout, a reminder when none comes. */
const nudgeThenRemind = {
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'nudge',
  steps: [
    { id: 'nudge', type: 'send', template_id: 1, send_time: { mode: 0 }, next: 'wait_checkout' },
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: TIMEOUT_MINUTES,
      on_event: 'done',
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 2, send_time: { mode: 0 }, next: null },
    { id: 'done', type: 'exit' },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};

const stepsOf = (run: RunRecord) => run.path.map((p) => (p.via ? `${p.step}:${p.via}` : p.step));

describe('a three-step keyed journey over HTTP', () => {
  it(
    'cart A checked out after its nudge gets the nudge only; cart B times out and gets the nudge and the reminder',
    async () => {
      // Prepare: the journey published through the API; one shopper abandons carts A and B.
      const shop = await createTestClient();
      const journeyId = await publishJourney(shop, 'Nudge, then remind', nudgeThenRemind);
      const email = `three-step-${randomUUID().slice(0, 8)}@example.com`;
      const { runA, runB } = await abandonCartsAAndB(shop, email, journeyId);

      // Both nudges go out, and each run then waits for its own cart's checkout.
      const isWaiting = (r: RunRecord) => r.status === 'waiting' && r.step_id === 'wait_checkout';
      const waitingA = await awaitRun(shop.id, runA, 'waiting for its checkout after the nudge', isWaiting);
      const waitingB = await awaitRun(shop.id, runB, 'waiting for its checkout after the nudge', isWaiting);
      const nudges = await awaitSesMailsTo(email, 2);

      // Act: cart A is checked out after its nudge, before its timeout; B's checkout never comes.
      const checkoutA = await sendSyncEvent(shop, { type: 'checkout_completed', email, cart_id: 'A' });

      // Assess: A resumed by its own cart's checkout only, and left by the exit step.
      expect(checkoutA.resumed_run_ids).toEqual([runA]);
      expect(Date.now()).toBeLessThan(Date.parse(waitingA.due_at!));
      const endedA = await awaitRun(shop.id, runA, 'exited at the exit step', (r) => r.status === 'exited');
      expect(endedA).toMatchObject({ status: 'exited', reason: 'exit_step', step_id: 'done' });
      expect(stepsOf(endedA)).toEqual(['nudge', 'wait_checkout:on_event', 'done']);
      expect(await runOf(shop.id, runB)).toMatchObject({ status: 'waiting', seq: waitingB.seq });

      // Assess: B's timeout sends the reminder and completes the run.
      const endedB = await awaitRun(
        shop.id,
        runB,
        'completed after its timeout and reminder',
        (r) => r.status === 'completed',
        timeoutMs + 30_000,
      );
      expect(stepsOf(endedB)).toEqual(['nudge', 'wait_checkout:on_timeout', 'remind']);
      expect(Date.parse(endedB.path[1]!.at)).toBeGreaterThanOrEqual(Date.parse(waitingB.due_at!));
      const mails = await awaitSesMailsTo(email, 3);
      // Nothing more arrives: the executor had its time to send anything A's checkout failed to stop.
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      // Assess: the SES store holds exactly two nudges and one reminder for this shopper, in that order.
      expect(await sesMailsTo(email)).toEqual(mails);
      expect(mails).toHaveLength(3);
      expect(nudges.map((m) => m.subject)).toEqual([
        expect.stringMatching(NUDGE_SUBJECT),
        expect.stringMatching(NUDGE_SUBJECT),
      ]);
      expect(mails.map((m) => m.subject)).toEqual([
        expect.stringMatching(NUDGE_SUBJECT),
        expect.stringMatching(NUDGE_SUBJECT),
        expect.stringMatching(REMINDER_SUBJECT),
      ]);
      for (const mail of mails) expect(mail.destination).toEqual({ to: [email], cc: [], bcc: [] });

      // Assess: the journey's executions, each naming its run and its step: A the nudge; B the nudge and the reminder.
      // The listing's items carry run_id and step_id for a journey's sends (ExecutionItem leaves them out).
      const executions = (await listExecutions(
        shop.api_key,
        `workflow_id=${journeyId}&per_page=100`,
      )) as (ExecutionItem & {
        run_id?: number;
        step_id?: string;
      })[];
      const byRun = (runId: number) =>
        executions
          .filter((e) => e.run_id === runId)
          .map((e) => ({ step_id: e.step_id, status: e.status, sent: e.sent_email_id !== null }))
          .sort((a, b) => a.step_id!.localeCompare(b.step_id!));
      expect(executions).toHaveLength(3);
      expect(byRun(runA)).toEqual([{ step_id: 'nudge', status: EXECUTION_STATUS.completed, sent: true }]);
      expect(byRun(runB)).toEqual([
        { step_id: 'nudge', status: EXECUTION_STATUS.completed, sent: true },
        { step_id: 'remind', status: EXECUTION_STATUS.completed, sent: true },
      ]);
      expect(endedA.sends['nudge']).toMatchObject({ execution_id: expect.any(Number) });
      expect(endedA.sends).not.toHaveProperty('remind');
      expect(Object.keys(endedB.sends).sort()).toEqual(['nudge', 'remind']);
    },
    timeoutMs + 120_000,
  );
});
