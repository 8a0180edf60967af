import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../shared/domain/runs/run-record.js';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { abandonCartsAAndB, awaitRun, publishJourney, runOf, sendSyncEvent } from '../support/journeys.js';
import { awaitSesMailsTo, sesMailsTo } from '../support/ses-mailbox.js';

/**
 * Cart B's reminder comes after this timeout. The integration runtime's journey minute lasts `journeyMinuteMs` (a
 * second), so this is 10 s: about three times what the checks between B's entry and its timeout took on a loaded
 * 2-core machine (they read B still waiting, and say so if it left early).
 */
const TIMEOUT_MINUTES = 10;
const timeoutMs = TIMEOUT_MINUTES * inject('journeyMinuteMs');

/** The journey: a cart abandoned waits for its own checkout; without one in time, a reminder. */
const cartJourney = {
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
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
  ],
  settings: {
    category: 'marketing',
    topic_id: null,
    critical: false,
    exit_events: ['account_closed'],
    conversion_window_days: 7,
  },
};

const waysOut = (run: RunRecord) => run.path.filter((p) => p.step === 'wait_checkout').map((p) => p.via);

describe('the cart-abandonment journey over HTTP', () => {
  it(
    'a checked-out cart ends on_event without mail, another gets one reminder after the timeout, a stray checkout changes nothing, an exit event ends a waiting run',
    async () => {
      // Prepare: the journey published through the API; one shopper abandons carts A and B.
      const client = await createTestClient();
      const journeyId = await publishJourney(client, 'Cart reminder', cartJourney);
      const email = `shopper-${randomUUID().slice(0, 8)}@example.com`;
      const { runA, runB } = await abandonCartsAAndB(client, email, journeyId);
      const waitingB = await awaitRun(client.id, runB, 'waiting for its checkout', (r) => r.status === 'waiting');
      await awaitRun(client.id, runA, 'waiting for its checkout', (r) => r.status === 'waiting');
      // One run in flight per cart: B abandoned again starts none (its lock refuses it in the commit).
      const cartBAgain = await sendSyncEvent(client, { type: 'cart_abandoned', email, cart_id: 'B' });
      expect(cartBAgain.journey_entries).toEqual([{ journey_id: journeyId, run_id: null, outcome: 'in_flight' }]);
      // Another shopper closes their account while waiting: the exit event ends their run, no reminder for them.
      const leaver = `leaver-${randomUUID().slice(0, 8)}@example.com`;
      const cartC = await sendSyncEvent(client, {
        type: 'cart_abandoned',
        email: leaver,
        auto_create_contact: true,
        cart_id: 'C',
      });
      const runC = cartC.journey_entries[0].run_id as number;
      await awaitRun(client.id, runC, 'waiting for its checkout', (r) => r.status === 'waiting');
      await sendSyncEvent(client, { type: 'account_closed', email: leaver });
      expect(await runOf(client.id, runC)).toMatchObject({ status: 'exited', reason: 'exit_event' });

      // Act: cart A is checked out; a checkout for a cart that never had a run arrives too.
      const checkoutA = await sendSyncEvent(client, { type: 'checkout_completed', email, cart_id: 'A' });
      const stray = await sendSyncEvent(client, { type: 'checkout_completed', email, cart_id: 'Z' });

      // Assess: A resumed and ended on_event; the stray checkout resumed nothing, B still waits as it did.
      expect(checkoutA.resumed_run_ids).toEqual([runA]);
      expect(checkoutA).not.toHaveProperty('journey_entries');
      expect(stray).not.toHaveProperty('resumed_run_ids');
      expect(stray).not.toHaveProperty('journey_entries');
      const shown = await call('GET', `/client/events/${checkoutA.id}`, { key: client.api_key });
      expect(shown.body.data.resumed_run_ids).toEqual([runA]);
      const endedA = await awaitRun(client.id, runA, 'completed', (r) => r.status === 'completed');
      expect(waysOut(endedA)).toEqual(['on_event']);
      expect(await runOf(client.id, runB)).toMatchObject({ status: 'waiting', seq: waitingB.seq });

      // Assess: the step counters (the change stream's projection): three runs entered the wait, A left on_event and
      // completed (a null edge), C exited there, B waits there now; validate's impact shows that run on the live step.
      const stats = await eventually(
        'the runs counted on their steps',
        async () => {
          const stillWaiting = await runOf(client.id, runB);
          if (stillWaiting?.status !== 'waiting')
            throw new Error(`cart B's run left its wait before the step counts were read: raise TIMEOUT_MINUTES`);
          const read = await call('GET', `/client/journeys/${journeyId}/stats`, { key: client.api_key });
          const wait = read.body.data?.steps?.find((s: { step_id: string }) => s.step_id === 'wait_checkout');
          return wait?.entered === 3 && wait.waiting === 1 && wait.left === 1 && wait.exited === 1 ? read : undefined;
        },
        { timeoutMs: 40_000, intervalMs: 1_000 },
      );
      expect(stats.body.data.steps.find((s: { step_id: string }) => s.step_id === 'wait_checkout')).toMatchObject({
        ways: { on_event: 1 },
        completed: 1,
      });
      const impact = await call('POST', `/client/journeys/${journeyId}/validate`, { key: client.api_key });
      expect(impact.body.data.impact).toContainEqual({ step_id: 'wait_checkout', change: 'unchanged', waiting: 1 });
      expect(impact.body.data.counted_at).toEqual(expect.any(String));

      // Assess: B's timeout sends one reminder and ends it on_timeout; A never mails.
      const endedB = await awaitRun(
        client.id,
        runB,
        'completed after its timeout and reminder',
        (r) => r.status === 'completed',
        timeoutMs + 60_000,
      );
      expect(waysOut(endedB)).toEqual(['on_timeout']);
      // Not before its timeout: the wait's due time is the entry's plus the timeout in the runtime's minutes.
      expect(Date.parse(waitingB.due_at!) - Date.parse(waitingB.step_entered_at)).toBe(timeoutMs);
      const leftAt = endedB.path.find((p) => p.step === 'wait_checkout')!.at;
      expect(Date.parse(leftAt)).toBeGreaterThanOrEqual(Date.parse(waitingB.due_at!));
      const [reminder, ...more] = await awaitSesMailsTo(email);
      expect(reminder!.destination.to).toEqual([email]);
      expect(more).toEqual([]);
      expect(endedB.sends['remind']).toMatchObject({ execution_id: expect.any(Number) });
      expect(endedA.sends).toEqual({});
      // Nothing else arrives (the executor has had its time to send anything A might have queued).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await sesMailsTo(email)).toHaveLength(1);
      expect(await sesMailsTo(leaver)).toEqual([]);
      expect(await runOf(client.id, runC)).toMatchObject({ status: 'exited', reason: 'exit_event' });
    },
    timeoutMs + 120_000,
  );
});
