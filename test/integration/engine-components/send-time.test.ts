import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestClient } from '../support/clients.js';
import {
  addContact,
  engineContainer,
  engineDeps,
  executionsOf,
  FakeMailer,
  fixedClock,
  ingestAndProcess,
  patchSettings,
  RecordingQueue,
  RecordingScheduler,
} from '../support/engine-components.js';

const BERLIN_QUIET_22_TO_7 = { timezone: 'Europe/Berlin', quiet_hour_start: 22, quiet_hour_end: 7 };
const NEW_YORK_WEEKDAYS_9_TO_17 = {
  timezone: 'America/New_York',
  send_window_enabled: true,
  send_window_start_hour: 9,
  send_window_end_hour: 17,
  send_window_allowed_days: '1,2,3,4,5',
};

/**
 * A trial_ending event (workflow 3: no delay, sent at once) processed at `now` for a client with `settings`; the
 * execution it started, and where it was dispatched.
 */
async function processAt(now: string, settings: Record<string, unknown>, contact: Record<string, unknown> = {}) {
  const queue = new RecordingQueue();
  const scheduler = new RecordingScheduler();
  const deps = engineDeps(engineContainer({ queue, scheduler, mailer: new FakeMailer(), clock: fixedClock(now) }));
  const client = await createTestClient();
  await patchSettings(deps, client.id, settings);
  const email = `when-${randomUUID().slice(0, 8)}@example.com`;
  await addContact(deps, client.id, { email, ...contact });
  const event = await ingestAndProcess(deps, client.id, { type: 'trial_ending', email });
  const execution = (await executionsOf(deps, event)).get(3)!;
  return { execution, queue, scheduler, clientId: client.id };
}

describe("the send time of a processed event's execution (processEvent, fixed clock, real DynamoDB adapters)", () => {
  it.each([
    // [case, now (UTC), settings, scheduled_for (UTC), reason, cap day (local)]
    [
      'before midnight inside quiet hours 22–7 → 07:00 the next local day',
      '2030-01-15T22:30:00.000Z',
      BERLIN_QUIET_22_TO_7,
      '2030-01-16T06:00:00.000Z',
      'quiet_hours',
      '2030-01-16',
    ],
    [
      'after midnight inside quiet hours 22–7 → 07:00 that local day',
      '2030-01-16T01:30:00.000Z',
      BERLIN_QUIET_22_TO_7,
      '2030-01-16T06:00:00.000Z',
      'quiet_hours',
      '2030-01-16',
    ],
    [
      'at 22:00 exactly (quiet hours start inclusive)',
      '2030-01-15T21:00:00.000Z',
      BERLIN_QUIET_22_TO_7,
      '2030-01-16T06:00:00.000Z',
      'quiet_hours',
      '2030-01-16',
    ],
    [
      'at 07:00 exactly (quiet hours end exclusive) → at once',
      '2030-01-16T06:00:00.000Z',
      BERLIN_QUIET_22_TO_7,
      '2030-01-16T06:00:00.000Z',
      undefined,
      '2030-01-16',
    ],
    [
      'at 21:59 local → at once',
      '2030-01-15T20:59:00.000Z',
      BERLIN_QUIET_22_TO_7,
      '2030-01-15T20:59:00.000Z',
      undefined,
      '2030-01-15',
    ],
    [
      'inside quiet hours on the spring-forward night → 07:00 summer time',
      '2030-03-30T22:30:00.000Z',
      BERLIN_QUIET_22_TO_7,
      '2030-03-31T05:00:00.000Z',
      'quiet_hours',
      '2030-03-31',
    ],
    [
      'on a Saturday, weekdays 9–17 → Monday 09:00',
      '2030-01-19T15:00:00.000Z',
      NEW_YORK_WEEKDAYS_9_TO_17,
      '2030-01-21T14:00:00.000Z',
      'weekday',
      '2030-01-21',
    ],
    [
      'on a Friday after 17:00, weekdays 9–17 → Monday 09:00',
      '2030-01-18T23:00:00.000Z',
      NEW_YORK_WEEKDAYS_9_TO_17,
      '2030-01-21T14:00:00.000Z',
      'send_window',
      '2030-01-21',
    ],
    [
      'on a Wednesday before 09:00, weekdays 9–17 → 09:00 that day',
      '2030-01-16T12:00:00.000Z',
      NEW_YORK_WEEKDAYS_9_TO_17,
      '2030-01-16T14:00:00.000Z',
      'send_window',
      '2030-01-16',
    ],
    [
      'on a Wednesday at 10:00, weekdays 9–17 → at once',
      '2030-01-16T15:00:00.000Z',
      NEW_YORK_WEEKDAYS_9_TO_17,
      '2030-01-16T15:00:00.000Z',
      undefined,
      '2030-01-16',
    ],
  ])('schedules an event %s', async (_case, now, settings, scheduledFor, reason, capDay) => {
    // Prepare + Act
    const { execution } = await processAt(now, settings);

    // Assess
    expect(execution).toMatchObject({
      status: 1,
      workflow_id: 3,
      scheduled_for: scheduledFor,
      cap_day: capDay,
      created_at: now,
    });
    expect(execution.reason).toBe(reason);
  });

  it("reads the hours on the contact's clock when it has a time zone, not the client's", async () => {
    // Prepare + Act: 15:30 in Berlin (no quiet hour), 23:30 in Tokyo (quiet)
    const { execution } = await processAt('2030-01-15T14:30:00.000Z', BERLIN_QUIET_22_TO_7, { timezone: 'Asia/Tokyo' });

    // Assess: 07:00 in Tokyo
    expect(execution).toMatchObject({
      scheduled_for: '2030-01-15T22:00:00.000Z',
      reason: 'quiet_hours',
      cap_day: '2030-01-16',
    });
  });

  it('dispatches a send moved by hours through the scheduler, for its instant', async () => {
    // Prepare + Act
    const { execution, queue, scheduler, clientId } = await processAt('2030-01-15T22:30:00.000Z', BERLIN_QUIET_22_TO_7);

    // Assess
    expect(scheduler.scheduled).toEqual([
      {
        at: '2030-01-16T06:00:00.000Z',
        queue: 'workflow',
        message: { client_id: clientId, execution_id: execution.id },
        name: `exec-${clientId}-${execution.id}-${Date.parse('2030-01-16T06:00:00.000Z')}`,
      },
    ]);
    expect(queue.executions).toEqual([]);
  });

  it('dispatches a send due within 15 minutes through the queue with DelaySeconds', async () => {
    // Prepare + Act: 21:50 in Berlin, quiet hours from 22:00 — no wait at all; then one 10 minutes before the end
    const now = await processAt('2030-01-15T20:50:00.000Z', BERLIN_QUIET_22_TO_7);
    const soon = await processAt('2030-01-16T05:50:00.000Z', BERLIN_QUIET_22_TO_7);

    // Assess
    expect(now.queue.sent).toEqual([
      { queue: 'workflow', message: { client_id: now.clientId, execution_id: now.execution.id }, delaySeconds: 0 },
    ]);
    expect(soon.queue.sent).toEqual([
      { queue: 'workflow', message: { client_id: soon.clientId, execution_id: soon.execution.id }, delaySeconds: 600 },
    ]);
    expect([...now.scheduler.scheduled, ...soon.scheduler.scheduled]).toEqual([]);
  });
});
