import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { listExecutions } from '../support/executions.js';
import {
  injectAndAwait,
  MINUTE_MS,
  sentEmailOf,
  sesEvent,
  sesMailOf,
  uniqueAddress,
  type TrackedEmail,
} from './support.js';

const TOKYO = 'Asia/Tokyo';
/** The whole user agent of Apple Mail Privacy Protection's image proxy (bot-detection.ts). */
const APPLE_MPP_UA = 'Mozilla/5.0';

/** `hour`:`minute` in Tokyo on the `days`-th day after `after` (always later than `after`). */
const tokyoAt = (after: string, days: number, hour: number, minute: number) =>
  DateTime.fromISO(after)
    .setZone(TOKYO)
    .plus({ days })
    .set({ hour, minute, second: 0, millisecond: 0 })
    .toUTC()
    .toISO()!;

describe('send time mode 2: the next e-mail goes at the hour the contact opens mail', () => {
  it('schedules at 19:00 Tokyo time after human opens at 19:00 Tokyo time; Apple MPP opens at 03:00 do not move it', async () => {
    // Prepare: a contact in Tokyo gets the welcome e-mail.
    const created = await createTestClient();
    const client = { id: created.id, api_key: created.api_key };
    const key = client.api_key;
    const address = uniqueAddress('optimal');
    const contact = await call('POST', '/client/contacts', { key, body: { email: address, timezone: TOKYO } });
    expect(contact.status, contact.text).toBe(201);
    const signup = await call('POST', '/client/events?sync=true', { key, body: { type: 'signup', email: address } });
    expect(signup.status, signup.text).toBe(201);
    const welcome = await sentEmailOf(key, signup, 1);
    const t: TrackedEmail = { client, contactId: contact.body.data.id, address, ...welcome };
    const mail = sesMailOf(t);
    const sent = t.email.created_at;

    // Three human opens around 19:00 in Tokyo on three evenings; five MPP opens at 03:00 (more, so they would win).
    for (const [days, minute] of [
      [1, 2],
      [2, 15],
      [3, 40],
    ] as const) {
      const at = tokyoAt(sent, days, 19, minute);
      const { log } = await injectAndAwait(t, sesEvent.open(mail, at), at);
      expect(log).toMatchObject({ status: 4, is_bot: false });
    }
    for (let days = 1; days <= 5; days += 1) {
      const at = tokyoAt(sent, days, 3, 0);
      const { log } = await injectAndAwait(t, sesEvent.open(mail, at, { userAgent: APPLE_MPP_UA }), at);
      expect(log).toMatchObject({ status: 4, is_bot: true, bot_reason: 'apple_mail_privacy' });
    }

    // The client asks for mode 2 on trial_ending (workflow 3, no delay): validated and audited.
    const refused = await call('PATCH', '/client/workflows/3/customization', { key, body: { send_time_mode: 3 } });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ key: 'send_time_mode', condition: 'enum' })]);
    const patched = await call('PATCH', '/client/workflows/3/customization', { key, body: { send_time_mode: 2 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ workflow_id: 3, send_time_mode: 2, overrides: { send_time_mode: 2 } });
    const audit = await call('GET', '/client/workflows/3/customization/audit', { key });
    expect(audit.body.data.entries).toEqual([
      expect.objectContaining({
        before: expect.objectContaining({ send_time_mode: 0 }),
        after: expect.objectContaining({ send_time_mode: 2 }),
      }),
    ]);

    // Act
    const before = Date.now();
    const event = await call('POST', '/client/events?sync=true', {
      key,
      body: { type: 'trial_ending', email: address },
    });

    // Assess
    expect(event.status, event.text).toBe(201);
    const [id] = event.body.data.execution_ids as number[];
    const execution = (await listExecutions(key)).find((e) => e.id === id)!;
    const due = DateTime.fromISO(event.body.data.ts as string).setZone(TOKYO);
    const scheduled = DateTime.fromISO(execution.scheduled_for).setZone(TOKYO);
    expect({ status: execution.status, reason: execution.reason, hour: scheduled.hour }).toEqual({
      status: 1,
      reason: 'contact_open_hours',
      hour: 19,
    });
    // 19:00 sharp, unless the event itself came during the 19:00 hour in Tokyo (then at once).
    if (due.hour !== 19) expect(scheduled.toFormat('HH:mm:ss.SSS')).toBe('19:00:00.000');
    expect(scheduled.toMillis() - before).toBeLessThanOrEqual(24 * 60 * MINUTE_MS);
    expect(scheduled.toMillis()).toBeGreaterThanOrEqual(before - MINUTE_MS);
  });
});
