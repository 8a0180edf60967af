import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { parseSesNotification, type SesStatusEvent } from '../../../../shared/domain/tracking/ses-notification.js';

const DIR = new URL('../../../../events-samples/ses/', import.meta.url);
const sample = (name: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(name, DIR), 'utf8'));

const MID = '0100018c1b2a3d4e-5f6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b8c-000000';
const ANN = 'ann@example.com';
const SENT_AT = '2026-03-02T09:00:00.214Z';
const TAGS = {
  'ses:operation': 'SendEmail',
  'ses:configuration-set': 'email-lifecycle',
  'ses:source-ip': '3.120.181.44',
  'ses:from-domain': 'acme.example',
  'ses:caller-identity': 'EmailLifecycle-WorkflowQueueRole-4XK2N9QJ7T1B',
  client_id: '7',
  execution_id: '244336816038904',
  sent_email_id: '363770f9-8f39-80d6-8b1e-888d44cb338a',
};
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const OUTLOOK = 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)';
const SUPPRESSED =
  'Amazon SES did not send the message to this address because it is on the suppression list for your account. For more information about removing addresses from the suppression list, see the Amazon SES Developer Guide at https://docs.aws.amazon.com/ses/latest/DeveloperGuide/sending-email-suppression-list.html';

const DELIVERED: Omit<SesStatusEvent, 'dedupeKey' | 'tags'> = {
  messageId: MID,
  kind: 'delivery',
  status: SENT_STATUS.delivered,
  occurredAt: '2026-03-02T09:00:01.712Z',
  statusText: 'Delivered: 250 2.0.0 OK  1772442001 a640c23a62f3a-ab7c1f2e3d4si1234567a.12 - gsmtp',
  recipient: ANN,
};
const PERMANENT_BOUNCE: Omit<SesStatusEvent, 'dedupeKey' | 'tags'> = {
  messageId: MID,
  kind: 'bounce',
  status: SENT_STATUS.bounced,
  occurredAt: '2026-03-02T09:00:02.101Z',
  statusText: 'Permanent bounce (General): 550 5.1.1 user unknown',
  bounce: { type: 'Permanent', subType: 'General', permanent: true, suppressedByAccount: false },
  recipient: ANN,
};
const COMPLAINT: Omit<SesStatusEvent, 'dedupeKey' | 'tags'> = {
  messageId: MID,
  kind: 'complaint',
  status: SENT_STATUS.complained,
  occurredAt: '2026-03-02T10:12:44.000Z',
  statusText: 'Complaint (abuse)',
  complaintFeedbackType: 'abuse',
  recipient: ANN,
};

/** What every file of events-samples/ses/ means to the pipeline (the dedupe key is checked apart). */
const EXPECTED: Record<string, Omit<SesStatusEvent, 'dedupeKey'>> = {
  'event-send.json': {
    messageId: MID,
    kind: 'send',
    status: SENT_STATUS.sent,
    occurredAt: SENT_AT,
    statusText: 'SES Send event',
    tags: TAGS,
    recipient: ANN,
  },
  'event-delivery.json': { ...DELIVERED, tags: { ...TAGS, 'ses:outgoing-ip': '54.240.4.12' } },
  'event-bounce-permanent.json': { ...PERMANENT_BOUNCE, tags: TAGS },
  'event-bounce-suppression-list.json': {
    messageId: MID,
    kind: 'bounce',
    status: SENT_STATUS.bounced,
    occurredAt: '2026-03-02T09:00:00.412Z',
    statusText: `Permanent bounce (OnAccountSuppressionList): ${SUPPRESSED}`,
    bounce: { type: 'Permanent', subType: 'OnAccountSuppressionList', permanent: true, suppressedByAccount: true },
    tags: TAGS,
    recipient: ANN,
  },
  'event-bounce-transient.json': {
    messageId: MID,
    kind: 'bounce',
    status: SENT_STATUS.delivery_delayed,
    occurredAt: '2026-03-02T21:00:03.540Z',
    statusText:
      'Transient bounce (General): 421 4.7.0 [TSS04] Messages from 54.240.4.12 temporarily deferred due to unexpected volume or user complaints',
    bounce: { type: 'Transient', subType: 'General', permanent: false, suppressedByAccount: false },
    tags: TAGS,
    recipient: ANN,
  },
  'event-complaint.json': { ...COMPLAINT, tags: TAGS },
  'event-reject.json': {
    messageId: MID,
    kind: 'reject',
    status: SENT_STATUS.rejected,
    occurredAt: SENT_AT,
    statusText: 'Rejected by SES: Bad content',
    tags: TAGS,
    recipient: ANN,
  },
  'event-open.json': {
    messageId: MID,
    kind: 'open',
    status: SENT_STATUS.opened,
    occurredAt: '2026-03-02T09:14:03.318Z',
    statusText: 'Opened',
    ipAddress: '81.2.69.142',
    userAgent: OUTLOOK,
    sesBotFlag: false,
    tags: TAGS,
    recipient: ANN,
  },
  'event-click.json': {
    messageId: MID,
    kind: 'click',
    status: SENT_STATUS.clicked,
    occurredAt: '2026-03-02T09:14:21.907Z',
    statusText: 'Clicked',
    ipAddress: '81.2.69.142',
    userAgent: CHROME,
    url: 'https://acme.example/start?utm_source=lifecycle&utm_campaign=welcome',
    sesBotFlag: false,
    tags: TAGS,
    recipient: ANN,
  },
  'event-delivery-delay.json': {
    messageId: MID,
    kind: 'delivery_delay',
    status: SENT_STATUS.delivery_delayed,
    occurredAt: '2026-03-02T09:20:00.095Z',
    statusText: 'Delivery delayed (TransientCommunicationFailure): 421 4.4.1 Unable to connect to remote host',
    tags: TAGS,
    recipient: ANN,
  },
  'event-rendering-failure.json': {
    messageId: MID,
    kind: 'rendering_failure',
    status: SENT_STATUS.failed,
    occurredAt: SENT_AT,
    statusText: "Rendering failure (welcome): Attribute 'first_name' is not present in the rendering data.",
    tags: TAGS,
    recipient: ANN,
  },
  'event-subscription.json': {
    messageId: MID,
    kind: 'subscription',
    status: SENT_STATUS.unsubscribed,
    occurredAt: '2026-03-02T11:00:17.910Z',
    statusText: 'Unsubscribed from acme-newsletter (UnsubscribeHeader)',
    unsubscribedAll: true,
    tags: TAGS,
    recipient: ANN,
  },
  'notification-delivery.json': { ...DELIVERED, tags: {} },
  'notification-bounce.json': { ...PERMANENT_BOUNCE, tags: {} },
  'notification-complaint.json': { ...COMPLAINT, tags: {} },
  'sns-envelope-delivery.json': { ...DELIVERED, tags: { ...TAGS, 'ses:outgoing-ip': '54.240.4.12' } },
};

const parsed = (body: unknown): SesStatusEvent => {
  const result = parseSesNotification(body);
  if (!result.ok) throw new Error(`expected an event, got: ${result.reason}`);
  return result.event;
};
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The same JSON with every object's keys in reverse order. */
const reverseKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reverseKeys)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reverseKeys(v)]),
        )
      : value;
/** A minimal event publishing record of `eventType` with `body` under `key`. */
const event = (eventType: string, key: string, body: unknown) => ({
  eventType,
  mail: { timestamp: SENT_AT, messageId: MID, destination: [ANN] },
  [key]: body,
});

describe('parseSesNotification: every sample of events-samples/ses/', () => {
  it('has a sample of every event type, identity notification type and the SNS envelope, and expects each', () => {
    expect(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('maps %s', (file, expected) => {
    expect(parseSesNotification(sample(file))).toEqual({
      ok: true,
      event: { ...expected, dedupeKey: expect.any(String) },
    });
  });
});

describe('parseSesNotification: the SNS envelope and the dedupe key', () => {
  it('reads an SNS envelope as the SES event it wraps, keyed by the SNS MessageId', () => {
    // Prepare
    const envelope = sample('sns-envelope-delivery.json');
    const raw = sample('event-delivery.json');

    // Act
    const wrapped = parsed(envelope);
    const unwrapped = parsed(raw);

    // Assess
    expect(JSON.parse(envelope['Message'] as string)).toEqual(raw);
    expect(wrapped).toEqual({ ...unwrapped, dedupeKey: '8f5b2c1e-3d4a-5b6c-9d7e-0f1a2b3c4d5e' });
    expect(unwrapped.dedupeKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keys the same envelope delivered twice the same', () => {
    const envelope = sample('sns-envelope-delivery.json');
    expect(parsed(structuredClone(envelope)).dedupeKey).toBe(parsed(envelope).dedupeKey);
  });

  it('keys a raw event by the SHA-256 of its canonical JSON: keys sorted at every depth, no spaces', () => {
    const body = { eventType: 'Send', send: {}, mail: { timestamp: SENT_AT, messageId: MID } };
    expect(parsed(body).dedupeKey).toBe(
      sha256(`{"eventType":"Send","mail":{"messageId":"${MID}","timestamp":"${SENT_AT}"},"send":{}}`),
    );
  });

  it('keys the same raw event twice the same, whatever the order of its keys, and another event apart', () => {
    // Prepare
    const open = sample('event-open.json');
    const reordered = reverseKeys(open);
    const reopened = { ...open, open: { ...(open['open'] as object), timestamp: '2026-03-02T09:15:00.000Z' } };

    // Act
    const keys = [open, structuredClone(open), reordered, reopened].map((body) => parsed(body).dedupeKey);

    // Assess
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
  });
});

describe('parseSesNotification: reading the details', () => {
  it.each([
    ['"Likely"', 'Likely', true, 'Opened (SES: likely a bot)'],
    ['"Unlikely"', 'Unlikely', false, 'Opened'],
    ['true', true, true, 'Opened (SES: likely a bot)'],
    ['an unknown verdict', 'Perhaps', undefined, 'Opened'],
    ['no verdict', undefined, undefined, 'Opened'],
  ])("reads SES's isBotEvent %s on an open", (_case, isBotEvent, sesBotFlag, statusText) => {
    const result = parsed(
      event('Open', 'open', { timestamp: '2026-03-02T09:14:03.000Z', userAgent: CHROME, isBotEvent }),
    );
    expect(result.sesBotFlag).toBe(sesBotFlag);
    expect(result.statusText).toBe(statusText);
    expect('sesBotFlag' in result).toBe(sesBotFlag !== undefined);
  });

  it.each([
    ['Transient', 'MailboxFull', SENT_STATUS.delivery_delayed, 'MailboxFull'],
    ['Undetermined', undefined, SENT_STATUS.delivery_delayed, 'Undetermined'], // no subtype: read as its type's
    ['Permanent', 'NoEmail', SENT_STATUS.bounced, 'NoEmail'],
    ['Permanent', 'Suppressed', SENT_STATUS.bounced, 'Suppressed'],
  ])('logs a %s bounce of subtype %s as status %i', (bounceType, bounceSubType, status, subType) => {
    const result = parsed(
      event('Bounce', 'bounce', { bounceType, bounceSubType, bouncedRecipients: [{ emailAddress: ANN }] }),
    );
    expect(result).toMatchObject({
      kind: 'bounce',
      status,
      statusText: `${bounceType} bounce (${subType})`,
      bounce: { type: bounceType, subType, permanent: bounceType === 'Permanent', suppressedByAccount: false },
    });
  });

  it('falls back to mail.timestamp when the event has no time of its own', () => {
    expect(parsed(event('Delivery', 'delivery', {})).occurredAt).toBe(SENT_AT);
  });

  it('writes any timestamp as ISO 8601 UTC', () => {
    expect(parsed(event('Click', 'click', { timestamp: '2026-03-02T10:14:21+01:00' })).occurredAt).toBe(
      '2026-03-02T09:14:21.000Z',
    );
  });

  it('names the recipient the event is about before the first of the mail', () => {
    const body = {
      ...event('Delivery', 'delivery', { recipients: ['bob@example.com'] }),
      mail: { messageId: MID, timestamp: SENT_AT, destination: [ANN, 'bob@example.com'] },
    };
    expect(parsed(body).recipient).toBe('bob@example.com');
  });

  it('ignores keys it does not know, and drops a malformed tag instead of the notification', () => {
    // Prepare
    const body = sample('event-delivery.json');
    const mail = body['mail'] as Record<string, unknown>;
    const extended = {
      ...body,
      newTopLevelField: 1,
      mail: { ...mail, tags: { ...(mail['tags'] as object), broken: 'not a list' }, extra: true },
    };

    // Act
    const result = parsed(extended);

    // Assess
    expect(result).toEqual({ ...parsed(body), dedupeKey: expect.any(String) });
    expect(result.tags).not.toHaveProperty('broken');
  });

  it('records a subscription change that is not an unsubscribe-all as a preference change of a delivered e-mail', () => {
    const body = event('Subscription', 'subscription', {
      contactList: 'acme-newsletter',
      source: 'UnsubscribeLink',
      newTopicPreferences: { unsubscribeAll: false },
    });
    expect(parsed(body)).toMatchObject({
      status: SENT_STATUS.delivered,
      unsubscribedAll: false,
      statusText: 'Subscription preferences changed in acme-newsletter (UnsubscribeLink)',
    });
  });
});

describe('parseSesNotification: what is not a status notification', () => {
  const mail = { messageId: MID, timestamp: SENT_AT };
  it.each([
    ['null', null, 'not an SES notification: the body is not a JSON object'],
    ['an array', [], 'not an SES notification: the body is not a JSON object'],
    ['a string', 'Delivery', 'not an SES notification: the body is not a JSON object'],
    ['an object without a type', { mail }, 'not an SES notification: neither eventType nor notificationType'],
    ['an unknown eventType', { eventType: 'Teleport', mail }, 'unknown eventType Teleport'],
    ['an inbound-mail notification', { notificationType: 'Received', mail }, 'unknown notificationType Received'],
    ['an event type that is not a string', { eventType: 7, mail }, 'unknown eventType 7'],
    [
      'an Open without mail',
      { eventType: 'Open', open: { timestamp: SENT_AT } },
      'mail: Invalid input: expected object, received undefined',
    ],
    [
      'a mail without messageId',
      { eventType: 'Send', mail: { timestamp: SENT_AT } },
      'mail.messageId: Invalid input: expected string, received undefined',
    ],
    [
      'a bounce without a bounce type',
      { eventType: 'Bounce', mail, bounce: {} },
      expect.stringMatching(/^bounce\.bounceType: /),
    ],
    [
      'a bad event timestamp',
      { eventType: 'Delivery', mail, delivery: { timestamp: 'yesterday' } },
      'delivery.timestamp: not a timestamp',
    ],
    [
      'a Reject without any timestamp',
      { eventType: 'Reject', mail: { messageId: MID }, reject: {} },
      'no timestamp: neither reject.timestamp nor mail.timestamp',
    ],
    [
      'an SNS subscription confirmation',
      { Type: 'SubscriptionConfirmation', MessageId: 'm-1', TopicArn: 't', Message: 'You have chosen to subscribe' },
      'SNS SubscriptionConfirmation message, not a Notification',
    ],
    [
      'an SNS envelope without MessageId',
      { Type: 'Notification', TopicArn: 't', Message: '{}' },
      'SNS envelope.MessageId: Invalid input: expected string, received undefined',
    ],
    [
      'an SNS Message that is not JSON',
      { Type: 'Notification', MessageId: 'm-1', Message: '{oops' },
      'SNS Message is not JSON',
    ],
    [
      'an SNS Message that is not an object',
      { Type: 'Notification', MessageId: 'm-1', Message: '"hello"' },
      'not an SES notification: the SNS Message is not a JSON object',
    ],
    [
      'an SNS Message of an unknown type',
      { Type: 'Notification', MessageId: 'm-1', Message: JSON.stringify({ eventType: 'Foo', mail }) },
      'unknown eventType Foo',
    ],
  ])('refuses %s with a precise reason', (_case, body, reason) => {
    expect(parseSesNotification(body)).toEqual({ ok: false, reason });
  });
});
