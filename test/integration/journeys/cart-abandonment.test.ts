import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import type { RunRecord } from '../../../shared/domain/runs/run-record.js';
import { call } from '../support/api.js';
import { createTestClient, type TestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { documentClient } from '../support/partition.js';
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

async function publishCartJourney(client: TestClient): Promise<number> {
  const created = await call('POST', '/client/journeys', {
    key: client.api_key,
    body: { name: 'Cart reminder', definition: cartJourney },
  });
  expect(created.status).toBe(201);
  const { id, draft_version } = created.body.data;
  const published = await call('POST', `/client/journeys/${id}/publish`, {
    key: client.api_key,
    body: { draft_version },
  });
  expect(published.status).toBe(201);
  return id;
}

const sendEvent = async (client: TestClient, body: Record<string, unknown>) => {
  const res = await call('POST', '/client/events?sync=true', { key: client.api_key, body });
  expect(res.status).toBe(201);
  return res.body.data;
};

const runOf = async (clientId: number, runId: number): Promise<RunRecord | undefined> =>
  (
    await documentClient().send(
      new GetCommand({ TableName: inject('tableName'), Key: keys.run(clientId, runId), ConsistentRead: true }),
    )
  ).Item as RunRecord | undefined;

const awaitRun = (
  clientId: number,
  runId: number,
  what: string,
  holds: (run: RunRecord) => boolean,
  timeoutMs = 15_000,
) =>
  eventually(
    `run ${runId} ${what}`,
    async () => {
      const run = await runOf(clientId, runId);
      return run && holds(run) ? run : undefined;
    },
    { timeoutMs, intervalMs: 250 },
  );

const waysOut = (run: RunRecord) => run.path.filter((p) => p.step === 'wait_checkout').map((p) => p.via);

describe('the cart-abandonment journey over HTTP', () => {
  it(
    'a checked-out cart ends on_event without mail, another gets one reminder after the timeout, a stray checkout changes nothing, an exit event ends a waiting run',
    async () => {
      // Prepare: the journey published through the API; one shopper abandons carts A and B.
      const client = await createTestClient();
      const journeyId = await publishCartJourney(client);
      const email = `shopper-${randomUUID().slice(0, 8)}@example.com`;
      const cartA = await sendEvent(client, { type: 'cart_abandoned', email, auto_create_contact: true, cart_id: 'A' });
      const cartB = await sendEvent(client, { type: 'cart_abandoned', email, cart_id: 'B' });
      expect(cartA.journey_entries).toEqual([
        { journey_id: journeyId, run_id: expect.any(Number), outcome: 'entered' },
      ]);
      expect(cartB.journey_entries).toEqual([
        { journey_id: journeyId, run_id: expect.any(Number), outcome: 'entered' },
      ]);
      const runA = cartA.journey_entries[0].run_id as number;
      const runB = cartB.journey_entries[0].run_id as number;
      const waitingB = await awaitRun(client.id, runB, 'waiting for its checkout', (r) => r.status === 'waiting');
      await awaitRun(client.id, runA, 'waiting for its checkout', (r) => r.status === 'waiting');
      // One run in flight per cart: B abandoned again starts none (its lock refuses it in the commit).
      const cartBAgain = await sendEvent(client, { type: 'cart_abandoned', email, cart_id: 'B' });
      expect(cartBAgain.journey_entries).toEqual([{ journey_id: journeyId, run_id: null, outcome: 'in_flight' }]);
      // Another shopper closes their account while waiting: the exit event ends their run, no reminder for them.
      const leaver = `leaver-${randomUUID().slice(0, 8)}@example.com`;
      const cartC = await sendEvent(client, {
        type: 'cart_abandoned',
        email: leaver,
        auto_create_contact: true,
        cart_id: 'C',
      });
      const runC = cartC.journey_entries[0].run_id as number;
      await awaitRun(client.id, runC, 'waiting for its checkout', (r) => r.status === 'waiting');
      await sendEvent(client, { type: 'account_closed', email: leaver });
      expect(await runOf(client.id, runC)).toMatchObject({ status: 'exited', reason: 'exit_event' });

      // Act: cart A is checked out; a checkout for a cart that never had a run arrives too.
      const checkoutA = await sendEvent(client, { type: 'checkout_completed', email, cart_id: 'A' });
      const stray = await sendEvent(client, { type: 'checkout_completed', email, cart_id: 'Z' });

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
