import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import { openHoursOf } from '../../../../shared/domain/tracking/open-hours.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { effectiveStatus } from '../../../../shared/domain/sent-emails/sent-email-view.js';
import { resumeSending } from '../../../../shared/domain/tracking/deliverability-guard.js';
import { trackNotification } from '../../../../shared/domain/tracking/track-notification.js';
import { CLIENT_ID, engineHarness, NOW, type EngineHarness } from '../engine/engine-harness.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const later = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();

/** One e-mail sent through the engine (provider id `ses-1`), and a builder of its SES notifications. */
async function sentEmail(h: EngineHarness, email?: string, fields: Partial<ExecutionRecord> = {}) {
  const contact = await h.contact(email ? { email } : {});
  const execution = await h.queued(contact, fields);
  await h.execute(execution.id);
  const done = await h.execution(execution.id);
  const sentEmailId = done!.sent_email_id!;
  const messageId = `ses-${h.mailer.emails.length}`;
  const mail = {
    messageId,
    timestamp: NOW,
    source: 'hello@els.test',
    destination: [contact.email],
    tags: { client_id: [String(CLIENT_ID)], sent_email_id: [sentEmailId], execution_id: [String(execution.id)] },
  };
  const deps = { ...h.stores };
  return {
    contact,
    sentEmailId,
    messageId,
    track: (event: Record<string, unknown>) => trackNotification(deps, { mail, ...event }),
    view: async () => {
      const found = await h.stores.sentEmails.getWithLogs(CLIENT_ID, sentEmailId);
      return { ...effectiveStatus(found!.email, found!.logs), logs: found!.logs };
    },
  };
}

const delivery = (at = later(0)) => ({
  eventType: 'Delivery' as string,
  delivery: { timestamp: at, recipients: ['x@example.com'], smtpResponse: '250 ok' },
});
const open = (at: string, userAgent = CHROME) => ({
  eventType: 'Open',
  open: { timestamp: at, userAgent, ipAddress: '203.0.113.7' },
});
const click = (at: string, link = 'https://acme.test/start', userAgent = CHROME) => ({
  eventType: 'Click',
  click: { timestamp: at, userAgent, ipAddress: '203.0.113.7', link, linkTags: {} },
});
const bounce = (bounceType: 'Permanent' | 'Transient', at = later(1), bounceSubType = 'General') => ({
  eventType: 'Bounce',
  bounce: {
    bounceType,
    bounceSubType,
    bouncedRecipients: [
      {
        emailAddress: 'x@example.com',
        action: 'failed',
        status: '5.1.1',
        diagnosticCode: 'smtp; 550 5.1.1 user unknown',
      },
    ],
    timestamp: at,
    feedbackId: `fb-${at}`,
  },
});
const complaint = (at = later(5)) => ({
  eventType: 'Complaint',
  complaint: {
    complainedRecipients: [{ emailAddress: 'x@example.com' }],
    timestamp: at,
    feedbackId: `fb-c-${at}`,
    complaintFeedbackType: 'abuse',
  },
});

describe('trackNotification: logs and the e-mail status', () => {
  it('adds one log per notification and keeps the furthest status when a Delivery comes after a Click', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);

    // Act
    await mail.track(open(later(2)));
    await mail.track(click(later(3)));
    const late = await mail.track(delivery(later(0)));

    // Assess
    expect(late).toMatchObject({ kind: 'recorded', status: SENT_STATUS.delivered });
    const view = await mail.view();
    expect(view.status).toBe(SENT_STATUS.clicked);
    expect(view.at).toBe(later(3));
    // The fixed clock stamps queued, sent and the delivery at one instant: compare the set of statuses.
    expect(view.logs.map((l) => l.status).sort((a, b) => a - b)).toEqual([
      SENT_STATUS.queued,
      SENT_STATUS.sent,
      SENT_STATUS.delivered,
      SENT_STATUS.opened,
      SENT_STATUS.clicked,
    ]);
    expect(view.logs.find((l) => l.status === SENT_STATUS.clicked)).toMatchObject({
      url: 'https://acme.test/start',
      ip_address: '203.0.113.7',
      user_agent: CHROME,
      is_bot: false,
      provider_message_id: mail.messageId,
    });
  });

  it('records the same notification once (SNS and SQS deliver at least once)', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);

    // Act
    const first = await mail.track(open(later(2)));
    const second = await mail.track(open(later(2)));

    // Assess
    expect(first.kind).toBe('recorded');
    expect(second).toEqual({ kind: 'duplicate' });
    expect((await mail.view()).logs.filter((l) => l.status === SENT_STATUS.opened)).toHaveLength(1);
    expect((await h.storedContact(mail.contact.id))?.total_emails_opened).toBe(1);
  });

  it('acknowledges a message id it does not know, and a body that is no SES notification', async () => {
    // Prepare
    const h = await engineHarness();
    const deps = { ...h.stores };

    // Act
    const unknown = await trackNotification(deps, {
      mail: { messageId: 'nobody', timestamp: NOW, tags: {} },
      ...delivery(),
    });
    const garbage = await trackNotification(deps, { hello: 'world' });

    // Assess
    expect(unknown).toEqual({ kind: 'unknown_message', provider_message_id: 'nobody' });
    expect(garbage.kind).toBe('ignored');
  });

  it('tells the service’s own mail apart by its system tag, reading and writing nothing, so its bounces and complaints are counted apart', async () => {
    // Prepare
    const h = await engineHarness();
    const deps = { ...h.stores };
    const mail = {
      messageId: 'sys-1',
      timestamp: NOW,
      tags: { kind: ['system'], 'ses:configuration-set': ['els-system'] },
    };

    // Act
    const outcomes = [
      await trackNotification(deps, { mail, ...bounce('Permanent') }),
      await trackNotification(deps, { mail, ...complaint() }),
      await trackNotification(deps, { mail, ...delivery() }),
    ];

    // Assess
    expect(outcomes).toEqual([
      { kind: 'system_mail', event: 'bounce' },
      { kind: 'system_mail', event: 'complaint' },
      { kind: 'system_mail', event: 'delivery' },
    ]);
  });

  it("does not follow tags that name another client's e-mail", async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);
    const deps = { ...h.stores };

    // Act
    const outcome = await trackNotification(deps, {
      mail: {
        messageId: 'someone-elses',
        timestamp: NOW,
        tags: { client_id: [String(CLIENT_ID + 1)], sent_email_id: [mail.sentEmailId] },
      },
      ...delivery(),
    });

    // Assess
    expect(outcome.kind).toBe('unknown_message');
    expect((await mail.view()).logs).toHaveLength(2);
  });
});

describe('trackNotification: the contact', () => {
  it('counts e-mails opened and clicked by people, once each, and moves the activity times', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);
    await mail.track(delivery());

    // Act
    await mail.track(open(later(2)));
    await mail.track(open(later(4)));
    await mail.track(click(later(5)));

    // Assess
    expect(await h.storedContact(mail.contact.id)).toMatchObject({
      total_emails_opened: 1,
      total_emails_clicked: 1,
      last_email_opened_at: later(4),
      last_email_clicked_at: later(5),
      last_activity_at: later(5),
    });
  });

  it('counts a human click on an e-mail whose open was never seen as its open too', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);
    await mail.track(delivery());

    // Act
    await mail.track(click(later(3)));

    // Assess
    expect(await h.storedContact(mail.contact.id)).toMatchObject({
      total_emails_opened: 1,
      total_emails_clicked: 1,
      last_email_opened_at: later(3),
    });
  });

  it('logs a scanner click as a bot and leaves the figures alone', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);
    await mail.track(delivery());

    // Act
    const outcome = await mail.track(click(later(3), 'https://acme.test/start', 'python-requests/2.31.0'));

    // Assess
    expect(outcome).toMatchObject({ kind: 'recorded', is_bot: true });
    const log = (await mail.view()).logs.find((l) => l.status === SENT_STATUS.clicked);
    expect(log).toMatchObject({ is_bot: true, user_agent: 'python-requests/2.31.0' });
    expect(log?.bot_reason).toEqual(expect.any(String));
    expect(await h.storedContact(mail.contact.id)).toMatchObject({ total_emails_opened: 0, total_emails_clicked: 0 });
    expect((await h.storedContact(mail.contact.id))?.last_activity_at).toBeUndefined();
    expect((await h.storedContact(mail.contact.id))?.last_email_clicked_at).toBeUndefined();
  });

  it('takes a click within seconds of the delivery for a machine', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);
    await mail.track(delivery(later(0)));

    // Act
    const outcome = await mail.track(click(new Date(Date.parse(later(0)) + 2_000).toISOString()));

    // Assess
    expect(outcome).toMatchObject({ kind: 'recorded', is_bot: true });
    expect((await h.storedContact(mail.contact.id))?.total_emails_clicked).toBe(0);
  });

  it.each([
    ['a permanent bounce', bounce('Permanent'), 'hard_bounce'],
    [
      'a bounce from the account suppression list',
      bounce('Permanent', later(1), 'OnAccountSuppressionList'),
      'hard_bounce',
    ],
    ['a complaint', complaint(), 'complaint'],
  ])(
    'unsubscribes the contact after %s, and its next execution is skipped as suppressed',
    async (_case, event, reason) => {
      // Prepare
      const h = await engineHarness();
      const mail = await sentEmail(h);

      // Act
      await mail.track(event);
      const next = await h.queued(mail.contact);
      await h.execute(next.id);

      // Assess
      expect(await h.storedContact(mail.contact.id)).toMatchObject({
        is_subscribed: false,
        unsubscribe_reason: reason,
        unsubscribed_at: expect.any(String),
      });
      expect(await h.execution(next.id)).toMatchObject({ status: EXECUTION_STATUS.skipped, reason: 'suppressed' });
    },
  );

  it('keeps a contact subscribed after one or two transient bounces and suppresses it at the third within 30 days', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);

    // Act
    await mail.track(bounce('Transient', later(1)));
    await mail.track(bounce('Transient', later(2)));
    const afterTwo = await h.storedContact(mail.contact.id);
    await mail.track(bounce('Transient', later(3)));

    // Assess
    expect(afterTwo).toMatchObject({ is_subscribed: true });
    expect(await h.storedContact(mail.contact.id)).toMatchObject({
      is_subscribed: false,
      unsubscribe_reason: 'transient_bounces',
    });
    expect((await mail.view()).status).toBe(SENT_STATUS.delivery_delayed);
  });

  it.each([
    [
      'an unsubscribe from every topic unsubscribes the contact',
      true,
      { is_subscribed: false, unsubscribe_reason: 'ses_unsubscribe' },
    ],
    ['a preference change leaves the contact subscribed', false, { is_subscribed: true }],
  ])('SES Subscription event: %s', async (_case, unsubscribeAll, expected) => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);

    // Act
    await mail.track({
      eventType: 'Subscription',
      subscription: {
        contactList: 'acme',
        timestamp: later(9),
        source: 'UnsubscribeHeader',
        newTopicPreferences: { unsubscribeAll },
      },
    });

    // Assess
    expect(await h.storedContact(mail.contact.id)).toMatchObject(expected);
  });

  it('still logs a notification whose contact was erased', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);
    h.stores.contacts.contacts.clear();

    // Act
    const outcome = await mail.track(complaint());

    // Assess
    expect(outcome.kind).toBe('recorded');
    expect((await mail.view()).status).toBe(SENT_STATUS.complained);
  });
});

describe('trackNotification: the open-hour histogram', () => {
  /** The hours with opens, as `{hour: count}`. */
  const nonZero = (hours: readonly number[]) =>
    Object.fromEntries(hours.flatMap((n, hour) => (n > 0 ? [[hour, n]] : [])));
  const clientHours = async (h: EngineHarness) =>
    (await h.stores.processing.loadContext(CLIENT_ID, undefined, [])).clientOpenHours;

  it("counts every human open at its local hour in the e-mail's zone, on the contact and the client's aggregate", async () => {
    // Prepare: 10:05 and 10:40 UTC are 19:05 and 19:40 in Tokyo (UTC+9, no DST); 23:30 UTC is 08:30 the next day.
    const h = await engineHarness();
    const mail = await sentEmail(h, undefined, { send_zone: 'Asia/Tokyo' });
    await mail.track(delivery());

    // Act
    await mail.track(open('2026-01-15T10:05:00.000Z'));
    await mail.track(open('2026-01-15T10:40:00.000Z'));
    await mail.track(open('2026-01-15T23:30:00.000Z'));

    // Assess
    const contact = await h.storedContact(mail.contact.id);
    expect(nonZero(openHoursOf(contact))).toEqual({ 19: 2, 8: 1 });
    expect(contact).toMatchObject({ total_emails_opened: 1 });
    expect(nonZero((await clientHours(h))!)).toEqual({ 19: 2, 8: 1 });
  });

  it('reads the local hour with the offset of the open, not of the send (DST)', async () => {
    // Prepare: New York is UTC-5 in January and UTC-4 from 2026-03-08.
    const h = await engineHarness();
    const mail = await sentEmail(h, undefined, { send_zone: 'America/New_York' });
    await mail.track(delivery());

    // Act: both opens are at 19:00 New York time.
    await mail.track(open('2026-03-07T00:00:00.000Z'));
    await mail.track(open('2026-03-09T23:00:00.000Z'));

    // Assess
    expect(nonZero(openHoursOf(await h.storedContact(mail.contact.id)))).toEqual({ 19: 2 });
  });

  it.each([
    ['Apple Mail Privacy Protection', 'Mozilla/5.0'],
    ['a security scanner', 'python-requests/2.31.0'],
    [
      "Gmail's image proxy",
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    ],
  ])('never counts an open by %s', async (_, userAgent) => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h, undefined, { send_zone: 'Asia/Tokyo' });
    await mail.track(delivery());

    // Act
    const outcome = await mail.track(open('2026-01-15T18:00:00.000Z', userAgent));

    // Assess
    expect(outcome).toMatchObject({ kind: 'recorded', is_bot: true });
    expect(nonZero(openHoursOf(await h.storedContact(mail.contact.id)))).toEqual({});
    expect(await clientHours(h)).toBeUndefined();
  });

  it('counts an open once when the same notification arrives twice, and clicks not at all', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h, undefined, { send_zone: 'UTC' });
    await mail.track(delivery());

    // Act
    await mail.track(open('2026-01-15T07:10:00.000Z'));
    const again = await mail.track(open('2026-01-15T07:10:00.000Z'));
    await mail.track(click('2026-01-15T07:12:00.000Z'));

    // Assess
    expect(again).toEqual({ kind: 'duplicate' });
    expect(nonZero(openHoursOf(await h.storedContact(mail.contact.id)))).toEqual({ 7: 1 });
    expect(nonZero((await clientHours(h))!)).toEqual({ 7: 1 });
  });

  it('counts nothing for an e-mail sent before its zone was recorded', async () => {
    // Prepare
    const h = await engineHarness();
    const mail = await sentEmail(h);
    await mail.track(delivery());

    // Act
    await mail.track(open(later(2)));

    // Assess
    const contact = await h.storedContact(mail.contact.id);
    expect(contact).toMatchObject({ total_emails_opened: 1 });
    expect(nonZero(openHoursOf(contact))).toEqual({});
  });
});

describe('trackNotification: the deliverability guard', () => {
  it('pauses the client when bounces pass 5 % of a large enough sample; its executions wait until resumed', async () => {
    // Prepare: 300 sends today on the quota counter, then bounces
    const h = await engineHarness({}, { plan: 'growth' });
    const mail = await sentEmail(h);
    h.stores.sentEmails.data.quota.set(`${CLIENT_ID}\u0000${NOW.slice(0, 7)}\u00000`, {
      sent: 300,
      [`d${NOW.slice(8, 10)}`]: 300,
    });

    // Act
    const outcomes = [];
    for (let i = 0; i < 16; i += 1)
      outcomes.push(
        await mail.track({
          ...bounce('Permanent', later(10 + i)),
          bounce: { ...bounce('Permanent', later(10 + i)).bounce, feedbackId: `fb-${i}` },
        }),
      );
    const paused = await h.stores.clients.get(CLIENT_ID);
    const other = await h.contact();
    const waiting = await h.queued(other);
    const deferred = await h.execute(waiting.id);

    // Assess
    expect(outcomes.filter((o) => o.kind === 'recorded' && o.paused)).toHaveLength(1);
    expect(paused?.sending_paused_at).toEqual(expect.any(String));
    expect(deferred).toEqual({ kind: 'deferred' });
    expect(await h.execution(waiting.id)).toMatchObject({ status: EXECUTION_STATUS.queued, reason: 'sending_paused' });
    expect(h.mailer.emails).toHaveLength(1);

    // Act: an admin resumes; the window restarts, so the next bounce does not pause again
    expect(await resumeSending(h.stores, CLIENT_ID, h.clock.now())).toBe(true);
    const again = await mail.track({
      ...bounce('Permanent', later(40)),
      bounce: { ...bounce('Permanent', later(40)).bounce, feedbackId: 'fb-after' },
    });

    // Assess
    expect(again).toMatchObject({ kind: 'recorded', paused: false });
    expect((await h.stores.clients.get(CLIENT_ID))?.sending_paused_at).toBeUndefined();
  });
});
