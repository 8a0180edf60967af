import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RFC3339_UTC } from '../support/api.js';
import { clientItems } from '../support/partition.js';
import {
  deliveredAt,
  deliveredWelcome,
  getContact,
  getSentEmail,
  identityDelivery,
  injectAndAwait,
  injectSesEvent,
  later,
  logItem,
  MINUTE_MS,
  postSesEvent,
  SENT_STATUS,
  sendWelcome,
  sesEvent,
  sesMailOf,
  settle,
  snsEnvelope,
  awaitLogAt,
  awaitStatus,
  withoutLogsAt,
  STATUS_TEXT,
  type SesMail,
  type TrackedEmail,
} from './support.js';

describe('e-mails sent by the local runtime', () => {
  it('reach delivered (3) by themselves: the local SES reports a Send and a Delivery with the real message id', async () => {
    // Prepare
    const sent = await sendWelcome();

    // Act
    const email = await awaitStatus(sent.client.api_key, sent.email.id, SENT_STATUS.delivered);

    // Assess
    expect(email).toMatchObject({
      status: 3,
      status_text: 'delivered',
      status_updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const fromSes = email.logs.filter(
      (l) => l.provider_message_id === sent.messageId && l.status !== SENT_STATUS.queued,
    );
    expect(fromSes).toEqual(
      expect.arrayContaining([
        logItem({
          status: 2,
          status_text: 'sent',
          provider_message_id: sent.messageId,
          created_at: expect.stringMatching(RFC3339_UTC),
        }),
        logItem({
          status: 3,
          status_text: 'delivered',
          provider_message_id: sent.messageId,
          created_at: expect.stringMatching(RFC3339_UTC),
        }),
      ]),
    );
  });
});

describe('POST /dev/ses-events', () => {
  it.each([
    ['an SNS envelope', (mail: SesMail, at: string) => snsEnvelope(sesEvent.delivery(mail, at))],
    ['a raw SES event (eventType)', (mail: SesMail, at: string) => sesEvent.delivery(mail, at)],
    ['a raw identity notification (notificationType)', (mail: SesMail, at: string) => identityDelivery(mail, at)],
  ])('answers 202 without credentials for %s and adds its log, dated by the event', async (_shape, build) => {
    // Prepare
    const t = await deliveredWelcome();
    const at = later(deliveredAt(t.email), 30_000);

    // Act
    const res = await postSesEvent(build(sesMailOf(t), at));

    // Assess
    expect(res.status).toBe(202);
    expect(res.body.success).toBe(true);
    const { email, log } = await awaitLogAt(t.client.api_key, t.email.id, at);
    expect(log).toEqual(
      logItem({ created_at: at, status: 3, status_text: 'delivered', provider_message_id: t.messageId }),
    );
    expect(email.logs).toHaveLength(t.email.logs.length + 1);
    expect(email.status).toBe(SENT_STATUS.delivered);
  });

  const mail: SesMail = {
    messageId: '010001936a0b1c2d-11111111-2222-3333-4444-555555555555-000000',
    timestamp: '2026-01-15T10:00:00.000Z',
    source: 'news@example.com',
    destination: ['lin@example.com'],
    tags: {},
  };
  it.each([
    ['an empty object', {}],
    ['an object that is no notification', { hello: 'world' }],
    [
      'an SNS subscription confirmation',
      {
        Type: 'SubscriptionConfirmation',
        MessageId: randomUUID(),
        Token:
          '2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92768dd60a747ba6f3beb71854e285d6ad02428b09ceece29417f1f02d609c582afbacc99c583a916b9981dd2728f4ae6fdb82efd087cc3b7849e05798d2d2785c03b0879594eeac82c01f235d0e717736',
        TopicArn: 'arn:aws:sns:us-east-1:123456789012:email-lifecycle-ses-status',
        Message: 'You have chosen to subscribe to the topic.',
        SubscribeURL: 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription',
        Timestamp: '2026-01-15T10:00:00.000Z',
      },
    ],
    ['an SNS envelope whose Message is not JSON', { ...snsEnvelope({}), Message: 'not json' }],
    ['an SES event of an unknown eventType', { eventType: 'Teleport', mail, teleport: { timestamp: mail.timestamp } }],
    [
      'an Open without its mail',
      { eventType: 'Open', open: { timestamp: mail.timestamp, ipAddress: '203.0.113.7', userAgent: 'x' } },
    ],
  ])('answers 422 for %s', async (_case, body) => {
    // Act
    const res = await postSesEvent(body);

    // Assess
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, data: {} });
    expect(res.body.errors).toEqual([
      expect.objectContaining({ condition: expect.any(String), key: expect.any(String), error: expect.any(String) }),
    ]);
  });
});

describe('the e-mail status', () => {
  const link = 'https://example.com/pricing';
  it.each([
    ['a Delivery after a Click leaves clicked', ['click', 'delivery'], SENT_STATUS.clicked],
    ['an Open after a Click leaves clicked', ['click', 'open'], SENT_STATUS.clicked],
    ['a Click after an Open makes it clicked', ['open', 'click'], SENT_STATUS.clicked],
    ['a permanent bounce after a Click makes it bounced', ['click', 'bounce'], SENT_STATUS.bounced],
    ['a Click after a permanent bounce leaves bounced', ['bounce', 'click'], SENT_STATUS.bounced],
    ['a complaint after an Open makes it complained', ['open', 'complaint'], SENT_STATUS.complained],
    ['a permanent bounce after a complaint leaves complained', ['complaint', 'bounce'], SENT_STATUS.complained],
  ] as const)('never moves backwards: %s, and every notification adds its log', async (_case, kinds, expected) => {
    // Prepare
    const t = await deliveredWelcome();
    const mail = sesMailOf(t);
    const build = {
      open: (at: string) => sesEvent.open(mail, at),
      click: (at: string) => sesEvent.click(mail, at, link),
      delivery: (at: string) => sesEvent.delivery(mail, at),
      bounce: (at: string) => sesEvent.bounce(mail, at, 'Permanent'),
      complaint: (at: string) => sesEvent.complaint(mail, at),
    };
    const times = kinds.map((_, i) => later(deliveredAt(t.email), (i + 1) * MINUTE_MS));

    // Act: one at a time, each handled before the next is sent
    for (const [i, kind] of kinds.entries()) await injectAndAwait(t, build[kind](times[i]!), times[i]!);

    // Assess
    const email = await getSentEmail(t.client.api_key, t.email.id);
    expect({ status: email.status, status_text: email.status_text }).toEqual({
      status: expected,
      status_text: STATUS_TEXT[expected],
    });
    expect(email.logs).toHaveLength(t.email.logs.length + kinds.length);
    expect(times.every((at) => email.logs.some((l) => l.created_at === at))).toBe(true);
  });
});

describe('the same notification twice', () => {
  it('records an SNS notification delivered twice (same MessageId) once', async () => {
    // Prepare
    const t = await deliveredWelcome();
    const at = later(deliveredAt(t.email), MINUTE_MS);
    const envelope = snsEnvelope(sesEvent.open(sesMailOf(t), at));

    // Act
    await injectSesEvent(envelope);
    await injectSesEvent(envelope);

    // Assess
    await awaitLogAt(t.client.api_key, t.email.id, at);
    await settle(t);
    const email = await getSentEmail(t.client.api_key, t.email.id);
    expect(email.logs.filter((l) => l.created_at === at)).toHaveLength(1);
    expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({ total_emails_opened: 1 });
  });
});

describe('a notification of a message this service did not send', () => {
  it.each([
    ['without tags', (_t: TrackedEmail) => ({})],
    ["tagged with the client's own ids", (t: TrackedEmail) => sesMailOf(t).tags],
  ])('answers 202 and changes nothing (%s)', async (_case, tagsOf) => {
    // Prepare
    const t = await deliveredWelcome();
    const unknown = `0100019${randomUUID().replace(/-/g, '').slice(0, 9)}-${randomUUID()}-000000`;
    const mail = { ...sesMailOf(t), messageId: unknown, tags: tagsOf(t) };
    const at = later(deliveredAt(t.email), MINUTE_MS);
    const before = { email: await getSentEmail(t.client.api_key, t.email.id), items: await clientItems(t.client.id) };

    // Act
    const answers = [
      await postSesEvent(snsEnvelope(sesEvent.open(mail, at))),
      await postSesEvent(sesEvent.click(mail, later(at, 1_000), 'https://example.com/pricing')),
      await postSesEvent(snsEnvelope(sesEvent.bounce(mail, later(at, 2_000), 'Permanent'))),
    ];

    // Assess
    expect(answers.map((a) => [a.status, a.body.success])).toEqual([
      [202, true],
      [202, true],
      [202, true],
    ]);
    const settledAt = await settle(t);
    expect(withoutLogsAt(await getSentEmail(t.client.api_key, t.email.id), settledAt)).toEqual(before.email);
    expect(await clientItems(t.client.id)).toEqual(before.items);
  });
});

describe('tenant isolation', () => {
  it("changes nothing of client A for a notification tagged with A's ids that carries client B's message id", async () => {
    // Prepare
    const [a, b] = await Promise.all([deliveredWelcome(), deliveredWelcome()]);
    const mail = { ...sesMailOf(a), messageId: b.messageId };
    const at = later(deliveredAt(a.email), MINUTE_MS);
    const before = {
      email: await getSentEmail(a.client.api_key, a.email.id),
      contact: await getContact(a.client.api_key, a.contactId),
      items: await clientItems(a.client.id),
    };

    // Act
    await injectSesEvent(snsEnvelope(sesEvent.open(mail, at)));
    await injectSesEvent(snsEnvelope(sesEvent.click(mail, later(at, 1_000), 'https://example.com/pricing')));
    await injectSesEvent(snsEnvelope(sesEvent.complaint(mail, later(at, 2_000))));

    // Assess
    const settledAt = await settle(a);
    expect(withoutLogsAt(await getSentEmail(a.client.api_key, a.email.id), settledAt)).toEqual(before.email);
    expect(await getContact(a.client.api_key, a.contactId)).toEqual(before.contact);
    expect(await clientItems(a.client.id)).toEqual(before.items);
  });
});
