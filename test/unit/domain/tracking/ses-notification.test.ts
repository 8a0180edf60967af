import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { parseSesNotification, type SesStatusEvent } from '../../../../shared/domain/tracking/ses-notification.js';

const DIR = new URL('../../../../events-samples/ses/', import.meta.url);
const sample = (name: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(name, DIR), 'utf8'));
const MID = '010001934f6c2a1b-5d7e8f90-1a2b-4c3d-9e8f-7a6b5c4d3e2f-000000';
const TAGS = {
  'ses:configuration-set': 'email-lifecycle',
  'ses:source-ip': '192.0.2.10',
  'ses:from-domain': 'acme.example',
  'ses:caller-identity': 'execute-workflow-role',
  'ses:outgoing-ip': '54.240.8.21',
  client_id: '7',
  execution_id: '244336816038904',
  sent_email_id: '363770f9-8f39-80d6-8b1e-888d44cb338a',
};
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** What every sample of events-samples/ses/ means to the pipeline (the dedupe key is checked apart). */
const EXPECTED: Record<string, Omit<SesStatusEvent, 'dedupeKey'>> = {
  'event-send.json': { messageId: MID, kind: 'send', status: SENT_STATUS.sent, occurredAt: '2026-03-02T09:00:00.000Z', statusText: 'SES Send event', tags: TAGS, recipient: 'ann@example.com' },
  'event-delivery.json': {
    messageId: MID, kind: 'delivery', status: SENT_STATUS.delivered, occurredAt: '2026-03-02T09:00:01.712Z', statusText: '250 2.6.0 Message received', tags: TAGS, recipient: 'ann@example.com',
  },
  'event-bounce-permanent.json': {
    messageId: MID, kind: 'bounce', status: SENT_STATUS.bounced, occurredAt: '2026-03-02T09:00:02.101Z',
    statusText: 'Permanent bounce (General): smtp; 550 5.1.1 user unknown',
    bounce: { type: 'Permanent', subType: 'General', permanent: true, suppressedByAccount: false }, tags: TAGS, recipient: 'ann@example.com',
  },
  'event-bounce-suppression-list.json': {
    messageId: MID, kind: 'bounce', status: SENT_STATUS.bounced, occurredAt: '2026-03-02T09:00:00.412Z',
    statusText: expect.stringMatching(/^Permanent bounce \(OnAccountSuppressionList\): Amazon SES did not send/) as unknown as string,
    bounce: { type: 'Permanent', subType: 'OnAccountSuppressionList', permanent: true, suppressedByAccount: true }, tags: TAGS, recipient: 'ann@example.com',
  },
  'event-bounce-transient.json': {
    messageId: MID, kind: 'bounce', status: SENT_STATUS.delivery_delayed, occurredAt: '2026-03-02T09:05:00.000Z',
    statusText: 'Transient bounce (MailboxFull): smtp; 452 4.2.2 The email account that you tried to reach is over quota',
    bounce: { type: 'Transient', subType: 'MailboxFull', permanent: false, suppressedByAccount: false }, tags: TAGS, recipient: 'ann@example.com',
  },
  'event-complaint.json': {
    messageId: MID, kind: 'complaint', status: SENT_STATUS.complained, occurredAt: '2026-03-02T10:12:44.000Z', statusText: 'Complaint (abuse)',
    complaintFeedbackType: 'abuse', tags: TAGS, recipient: 'ann@example.com',
  },
  'event-reject.json': { messageId: MID, kind: 'reject', status: SENT_STATUS.rejected, occurredAt: '2026-03-02T09:00:00.000Z', statusText: 'Rejected: Bad content', tags: TAGS, recipient: 'ann@example.com' },
  'event-open.json': {
    messageId: MID, kind: 'open', status: SENT_STATUS.opened, occurredAt: '2026-03-02T09:14:03.000Z', ipAddress: '203.0.113.7', userAgent: CHROME, tags: TAGS, recipient: 'ann@example.com',
  },
  'event-click.json': {
    messageId: MID, kind: 'click', status: SENT_STATUS.clicked, occurredAt: '2026-03-02T09:14:21.000Z', ipAddress: '203.0.113.7', userAgent: CHROME,
    url: 'https://acme.example/start?utm_source=lifecycle', tags: TAGS, recipient: 'ann@example.com',
  },
  'event-delivery-delay.json': {
    messageId: MID, kind: 'delivery_delay', status: SENT_STATUS.delivery_delayed, occurredAt: '2026-03-02T09:20:00.000Z',
    statusText: 'Delivery delayed (TransientCommunicationFailure): smtp; 421 4.4.1 Unable to connect to remote host', tags: TAGS, recipient: 'ann@example.com',
  },
  'event-rendering-failure.json': {
    messageId: MID, kind: 'rendering_failure', status: SENT_STATUS.failed, occurredAt: '2026-03-02T09:00:00.000Z',
    statusText: "Rendering failure: Attribute 'first_name' is not present in the rendering data.", tags: TAGS, recipient: 'ann@example.com',
  },
  'event-subscription.json': {
    messageId: MID, kind: 'subscription', status: SENT_STATUS.unsubscribed, occurredAt: '2026-03-02T11:00:00.000Z',
    statusText: 'Unsubscribed through SES (acme-newsletter)', tags: TAGS, recipient: 'ann@example.com',
  },
  'notification-delivery.json': {
    messageId: MID, kind: 'delivery', status: SENT_STATUS.delivered, occurredAt: '2026-03-02T09:00:01.712Z', statusText: '250 2.6.0 Message received', tags: {}, recipient: 'ann@example.com',
  },
  'notification-bounce.json': {
    messageId: MID, kind: 'bounce', status: SENT_STATUS.bounced, occurredAt: '2026-03-02T09:00:02.101Z',
    statusText: 'Permanent bounce (General): smtp; 550 5.1.1 user unknown',
    bounce: { type: 'Permanent', subType: 'General', permanent: true, suppressedByAccount: false }, tags: {}, recipient: 'ann@example.com',
  },
  'notification-complaint.json': {
    messageId: MID, kind: 'complaint', status: SENT_STATUS.complained, occurredAt: '2026-03-02T10:12:44.000Z', statusText: 'Complaint (abuse)',
    complaintFeedbackType: 'abuse', tags: {}, recipient: 'ann@example.com',
  },
};

describe('parseSesNotification: every sample of events-samples/ses/', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json') && !f.startsWith('sns-'));

  it('has a sample of every event type and of every identity notification type', () => {
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('maps %s', (file, expected) => {
    const raw = sample(file);
    const parsed = parseSesNotification(raw);
    expect(parsed).toEqual({ ok: true, event: { ...expected, dedupeKey: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  });
});

describe('parseSesNotification: the SNS envelope and the dedupe key', () => {
  it('unwraps the SNS envelope to the same event, keyed by the SNS MessageId', () => {
    const envelope = sample('sns-envelope-delivery.json');
    const parsed = parseSesNotification(envelope);
    const raw = parseSesNotification(sample('event-delivery.json'));
    expect(parsed.ok && raw.ok).toBe(true);
    if (!parsed.ok || !raw.ok) return;
    expect(parsed.event).toEqual({ ...raw.event, dedupeKey: envelope['MessageId'] });
  });

  it('keys a raw event by its content: the same event twice, keys in any order, is one key; another event another', () => {
    const event = sample('event-open.json');
    const reordered = Object.fromEntries(Object.entries(event).reverse());
    const other = { ...event, open: { ...(event['open'] as object), timestamp: '2026-03-02T09:15:00.000Z' } };
    const key = (body: unknown) => (parseSesNotification(body) as { event: SesStatusEvent }).event.dedupeKey;
    expect(key(event)).toBe(key(structuredClone(event)));
    expect(key(reordered)).toBe(key(event));
    expect(key(other)).not.toBe(key(event));
    expect(key(event)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('parseSesNotification: what is not a status notification', () => {
  it.each([
    ['an array', [], 'not a JSON object'],
    ['an SNS subscription confirmation', { Type: 'SubscriptionConfirmation', MessageId: 'm', TopicArn: 't', Message: 'confirm' }, 'SNS message of type SubscriptionConfirmation, not a Notification'],
    ['an SNS envelope whose Message is not JSON', { Type: 'Notification', MessageId: 'm', Message: '{oops' }, 'SNS Message is not JSON'],
    ['an object without a type', { mail: { messageId: 'x' } }, 'neither eventType nor notificationType'],
    ['an unknown event type', { eventType: 'Teleport', mail: { messageId: 'x', timestamp: '2026-03-02T09:00:00.000Z' } }, 'unknown eventType Teleport'],
    ['an Open without mail', { eventType: 'Open', open: { timestamp: '2026-03-02T09:00:00.000Z' } }, expect.stringMatching(/^mail: /)],
    ['a bounce without a bounce type', { eventType: 'Bounce', mail: { messageId: 'x', timestamp: '2026-03-02T09:00:00.000Z' }, bounce: {} }, expect.stringMatching(/^bounce: /)],
  ])('refuses %s with a precise reason', (_case, body, reason) => {
    expect(parseSesNotification(body)).toEqual({ ok: false, reason });
  });
});
