import { describe, expect, it } from 'vitest';
import { call, RFC3339_UTC } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import {
  awaitExecutionDone,
  awaitStatus,
  deliveredAt,
  deliveredWelcome,
  getContact,
  getDeliverability,
  HEALTH_SCORE,
  injectAndAwait,
  later,
  logItem,
  MINUTE_MS,
  SENT_STATUS,
  sendTrialEnding,
  sendWelcome,
  sesEvent,
  sesMailOf,
  signUp,
  type TrackedEmail,
  uniqueAddress,
} from './support.js';

/** The contact's next e-mail (trial_ending, sent at once unless something stops it): its execution once processed. */
async function nextExecution(t: TrackedEmail) {
  const event = await sendTrialEnding(t.client.api_key, t.address);
  return awaitExecutionDone(t.client.api_key, event.body.data.execution_ids[0]);
}

const SKIPPED_SUPPRESSED = { status: 6, status_text: 'skipped', reason: 'suppressed' };

describe('the SES mailbox simulator on the local runtime', () => {
  it.each([
    ['bounce@simulator.amazonses.com', 'bounced', 'hard_bounce', SENT_STATUS.bounced],
    ['suppressionlist@simulator.amazonses.com', 'bounced', 'hard_bounce', SENT_STATUS.bounced],
    ['complaint@simulator.amazonses.com', 'complained', 'complaint', SENT_STATUS.complained],
  ])(
    '%s: the e-mail is %s, the contact unsubscribed with reason %s, its next e-mail skipped as suppressed',
    async (address, text, reason, status) => {
      // Prepare
      const t = await sendWelcome(address);

      // Act
      const email = await awaitStatus(t.client.api_key, t.email.id, status);

      // Assess
      expect(email.status_text).toBe(text);
      expect(email.logs).toContainEqual(
        logItem({
          status,
          status_text: text,
          provider_message_id: t.messageId,
          created_at: expect.stringMatching(RFC3339_UTC),
        }),
      );
      expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({
        email: address,
        is_subscribed: false,
        unsubscribe_reason: reason,
        unsubscribed_at: expect.stringMatching(RFC3339_UTC),
      });
      expect(await nextExecution(t)).toMatchObject(SKIPPED_SUPPRESSED);
    },
  );

  it('ooto@simulator.amazonses.com: the e-mail is delivered and the contact stays subscribed', async () => {
    // Prepare + Act
    const t = await deliveredWelcome('ooto@simulator.amazonses.com');

    // Assess
    expect(t.email).toMatchObject({ status: 3, status_text: 'delivered' });
    expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({
      is_subscribed: true,
      unsubscribe_reason: null,
    });
    expect(await nextExecution(t)).toMatchObject({ status: 3, status_text: 'completed', reason: null });
  });
});

describe('injected bounces and complaints', () => {
  it.each([
    [
      'a permanent bounce',
      (t: TrackedEmail, at: string) => sesEvent.bounce(sesMailOf(t), at, 'Permanent'),
      SENT_STATUS.bounced,
      'bounced',
      'hard_bounce',
    ],
    [
      'a complaint',
      (t: TrackedEmail, at: string) => sesEvent.complaint(sesMailOf(t), at),
      SENT_STATUS.complained,
      'complained',
      'complaint',
    ],
  ])(
    '%s of a delivered e-mail unsubscribes the contact and skips its next e-mail as suppressed',
    async (_case, build, status, text, reason) => {
      // Prepare
      const t = await deliveredWelcome();
      const at = later(deliveredAt(t.email), 10 * MINUTE_MS);

      // Act
      const { email, log } = await injectAndAwait(t, build(t, at), at);

      // Assess
      expect(log).toEqual(logItem({ created_at: at, status, status_text: text, provider_message_id: t.messageId }));
      expect(email).toMatchObject({ status, status_text: text });
      expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({
        is_subscribed: false,
        unsubscribe_reason: reason,
        unsubscribed_at: expect.stringMatching(RFC3339_UTC),
        health_score: HEALTH_SCORE,
      });
      expect(await nextExecution(t)).toMatchObject(SKIPPED_SUPPRESSED);
    },
  );

  it("a permanent bounce of one client's e-mail suppresses that client's contact only: another client's contact at the same address keeps getting e-mail", async () => {
    // Prepare: two clients, each with a delivered welcome to the same address
    const address = uniqueAddress('shared');
    const first = await deliveredWelcome(address);
    const second = await deliveredWelcome(address);
    expect(second.client.id).not.toBe(first.client.id);
    const at = later(deliveredAt(first.email), 10 * MINUTE_MS);

    // Act
    await injectAndAwait(first, sesEvent.bounce(sesMailOf(first), at, 'Permanent'), at);

    // Assess
    expect(await getContact(first.client.api_key, first.contactId)).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'hard_bounce',
    });
    expect(await getContact(second.client.api_key, second.contactId)).toMatchObject({
      email: address,
      is_subscribed: true,
      unsubscribe_reason: null,
    });
    expect(await nextExecution(second)).toMatchObject({ status: 3, status_text: 'completed', reason: null });
    expect(await nextExecution(first)).toMatchObject(SKIPPED_SUPPRESSED);
  });

  it('a transient bounce is logged and leaves the contact subscribed: its next e-mail is sent', async () => {
    // Prepare
    const t = await deliveredWelcome();
    const at = later(deliveredAt(t.email), 10 * MINUTE_MS);

    // Act
    const { log } = await injectAndAwait(t, sesEvent.bounce(sesMailOf(t), at, 'Transient'), at);

    // Assess
    expect(log).toMatchObject({ created_at: at, provider_message_id: t.messageId, is_bot: false });
    expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({
      is_subscribed: true,
      unsubscribe_reason: null,
    });
    expect(await nextExecution(t)).toMatchObject({ status: 3, status_text: 'completed', reason: null });
  });
});

describe('GET /client/settings: deliverability', () => {
  /** A fresh client with a settings row (GET /client/settings answers 404 before the first PATCH). */
  async function clientWithSettings() {
    const created = await createTestClient();
    const patch = await call('PATCH', '/client/settings', { key: created.api_key, body: { brand_name: 'Tracking' } });
    expect(patch.status, patch.text).toBeLessThan(300);
    return { id: created.id, api_key: created.api_key };
  }

  it('shows an empty 30-day window for a client that sent nothing', async () => {
    // Prepare
    const client = await clientWithSettings();

    // Act
    const deliverability = await getDeliverability(client.api_key);

    // Assess
    expect(deliverability).toMatchObject({
      window_days: 30,
      sends: 0,
      bounces: 0,
      complaints: 0,
      bounce_rate: 0,
      complaint_rate: 0,
      status: 'healthy',
      paused_at: null,
    });
  });

  it('counts the sends, permanent bounces and complaints of the window, with their rates', async () => {
    // Prepare
    const client = await clientWithSettings();
    const [bounced, complained] = await Promise.all([
      signUp(client, 'bounce@simulator.amazonses.com'),
      signUp(client, 'complaint@simulator.amazonses.com'),
    ]);

    // Act
    await Promise.all([
      awaitStatus(client.api_key, bounced.email.id, SENT_STATUS.bounced),
      awaitStatus(client.api_key, complained.email.id, SENT_STATUS.complained),
    ]);

    // Assess
    const deliverability = await eventually('one bounce and one complaint counted', async () => {
      const d = await getDeliverability(client.api_key);
      return d['bounces'] === 1 && d['complaints'] === 1 ? d : undefined;
    });
    expect(deliverability).toMatchObject({
      window_days: 30,
      sends: 2,
      bounces: 1,
      complaints: 1,
      bounce_rate: 0.5,
      complaint_rate: 0.5,
      // Two sends are far below the sample SES judges rates on: not paused.
      status: 'healthy',
      paused_at: null,
    });
  });
});
