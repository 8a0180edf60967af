import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { call, request, type ApiResponse } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { listExecutions, type ExecutionItem } from '../support/executions.js';

/**
 * Delivery tracking over HTTP: e-mails sent by the local runtime, SES notifications built in the documented
 * AWS shapes and injected through `POST /dev/ses-events` (local only, no auth), and waits on what they change.
 * docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html (event publishing, `eventType`)
 * and …/notification-contents.html (identity notifications, `notificationType`).
 */

export const SENT_STATUS = {
  queued: 1,
  sent: 2,
  delivered: 3,
  opened: 4,
  clicked: 5,
  delivery_delayed: 6,
  bounced: 7,
  complained: 8,
  rejected: 9,
  failed: 10,
  unsubscribed: 11,
} as const;
export const STATUS_TEXT: Record<number, string> = Object.fromEntries(
  Object.entries(SENT_STATUS).map(([text, n]) => [n, text]),
);

/** A person reading mail in desktop Chrome. */
export const HUMAN_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const HUMAN_IP = '203.0.113.7';
/** A plain HTTP client: no person reads mail with it. */
export const SCANNER_UA = 'python-requests/2.31.0';

export const MINUTE_MS = 60_000;

export const uniqueAddress = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

/** `iso` moved by `ms`, as the API writes times (ISO 8601 with milliseconds, UTC). */
export const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** An integer 0–100 (`health_score`). */
export const HEALTH_SCORE = expect.toSatisfy(
  (n: unknown) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 100,
  'an integer 0–100',
);

// ---------------------------------------------------------------------------------------------------------------
// Reading what the API shows

/** A log item of a sent e-mail as the API shows it. */
export interface LogItem {
  id: string;
  created_at: string;
  status: number;
  status_text: string;
  provider_message_id: string | null;
  url: string | null;
  ip_address: string | null;
  user_agent: string | null;
  is_bot: boolean;
  bot_reason: string | null;
  detail: string | null;
}

/** The fields of `GET /client/sent-emails/{id}` these tests read. */
export interface SentEmail {
  id: string;
  client_id: number;
  contact_id: number;
  execution_id: number;
  from_email: string;
  to_email: string;
  provider_message_id: string | null;
  status: number;
  status_text: string;
  status_updated_at: string;
  created_at: string;
  logs: LogItem[];
}

/** A log item exactly as the contract lists it; `detail` (an extra) may be null or a text. */
export const logItem = (fields: Partial<Record<keyof LogItem, unknown>> & { status: number; status_text: string }) => ({
  id: expect.any(String),
  created_at: expect.any(String),
  provider_message_id: null,
  url: null,
  ip_address: null,
  user_agent: null,
  is_bot: false,
  bot_reason: null,
  detail: expect.toBeOneOf([null, expect.any(String)]),
  ...fields,
});

export async function getSentEmail(key: string, id: string): Promise<SentEmail> {
  const res = await call('GET', `/client/sent-emails/${id}`, { key });
  expect(res.status, `GET /client/sent-emails/${id}: ${res.text}`).toBe(200);
  return res.body.data as SentEmail;
}

export async function getContact(key: string, id: number): Promise<Record<string, any>> {
  const res = await call('GET', `/client/contacts/${id}`, { key });
  expect(res.status, `GET /client/contacts/${id}: ${res.text}`).toBe(200);
  return res.body.data as Record<string, any>;
}

/**
 * Waits (≤ 30 s: a send the SES emulator drops is retried after the local 5 s visibility timeout) until the sent
 * e-mail satisfies `done`, and returns it; `what` names the wait in a timeout.
 */
export async function awaitSentEmail(
  key: string,
  id: string,
  what: string,
  done: (e: SentEmail) => boolean,
): Promise<SentEmail> {
  return eventually(
    `sent e-mail ${id}: ${what}`,
    async () => {
      const res = await call('GET', `/client/sent-emails/${id}`, { key });
      return res.status === 200 && done(res.body.data as SentEmail) ? (res.body.data as SentEmail) : undefined;
    },
    { timeoutMs: 30_000 },
  );
}

export const awaitStatus = (key: string, id: string, status: number) =>
  awaitSentEmail(key, id, `status ${status}`, (e) => e.status === status);

/** Waits until the e-mail has a log of the notification that happened at `at` (its own timestamp), and returns both. */
export async function awaitLogAt(key: string, id: string, at: string): Promise<{ email: SentEmail; log: LogItem }> {
  const email = await awaitSentEmail(key, id, `a log at ${at}`, (e) => e.logs.some((l) => l.created_at === at));
  return { email, log: email.logs.find((l) => l.created_at === at)! };
}

/** The e-mail without the logs of the given times (a settle notification), to compare it with an earlier read. */
export const withoutLogsAt = (email: SentEmail, ...times: string[]): SentEmail => ({
  ...email,
  logs: email.logs.filter((l) => !times.includes(l.created_at)),
});

/**
 * Waits until execution `id` reached an outcome — neither queued (1) nor executing (2: a send the emulator dropped
 * waits for its retry) — and returns it.
 */
export async function awaitExecutionDone(key: string, id: number): Promise<ExecutionItem> {
  return eventually(
    `execution ${id} processed`,
    async () => {
      const found = (await listExecutions(key)).find((e) => e.id === id);
      return found && found.status !== 1 && found.status !== 2 ? found : undefined;
    },
    { timeoutMs: 30_000 },
  );
}

export async function getDeliverability(key: string): Promise<Record<string, unknown>> {
  const res = await call('GET', '/client/settings', { key });
  expect(res.status, `GET /client/settings: ${res.text}`).toBe(200);
  return res.body.data.deliverability as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------------------
// E-mails sent by the local runtime

export interface TrackedEmail {
  client: { id: number; api_key: string };
  contactId: number;
  address: string;
  /** The sent e-mail as last read. */
  email: SentEmail;
  /** The SES message id (`provider_message_id`). */
  messageId: string;
}

/**
 * A fresh client whose contact `address` signed up (sync): its welcome e-mail (workflow 1) is sent at once. Returns
 * once the welcome execution completed; the e-mail as it is then (SES notifications may still be on their way).
 */
export async function sendWelcome(address = uniqueAddress('track')): Promise<TrackedEmail> {
  const created = await createTestClient();
  return signUp({ id: created.id, api_key: created.api_key }, address);
}

/** `sendWelcome` for a client of the test's. */
export async function signUp(client: TrackedEmail['client'], address: string): Promise<TrackedEmail> {
  const event = await call('POST', '/client/events?sync=true', {
    key: client.api_key,
    body: { type: 'signup', email: address, auto_create_contact: true },
  });
  expect(event.status, `signup: ${event.text}`).toBe(201);
  const contactId = event.body.data.contact_id as number;
  const welcome = await sentEmailOf(client.api_key, event, 1);
  return { client, contactId, address, ...welcome };
}

/** `sendWelcome`, then waits until the local SES's Delivery made the e-mail delivered (3). */
export async function deliveredWelcome(address?: string): Promise<TrackedEmail> {
  const sent = await sendWelcome(address);
  const email = await awaitStatus(sent.client.api_key, sent.email.id, SENT_STATUS.delivered);
  return { ...sent, email };
}

/** The contact's next event: `trial_ending` (sync), whose one execution (workflow 3) sends at once. */
export async function sendTrialEnding(key: string, address: string): Promise<ApiResponse> {
  const event = await call('POST', '/client/events?sync=true', { key, body: { type: 'trial_ending', email: address } });
  expect(event.status, `trial_ending: ${event.text}`).toBe(201);
  expect(event.body.data.execution_ids, 'trial_ending starts one execution').toHaveLength(1);
  return event;
}

/** The e-mail the event's execution of `workflowId` sent (waits for the execution to complete). */
export async function sentEmailOf(
  key: string,
  event: ApiResponse,
  workflowId: number,
): Promise<{ email: SentEmail; messageId: string }> {
  const ids = event.body.data.execution_ids as number[];
  const execution = await eventually(
    `execution of workflow ${workflowId} completed`,
    async () => {
      const found = (await listExecutions(key)).find((e) => ids.includes(e.id) && e.workflow_id === workflowId);
      return found?.status === 3 && found.sent_email_id ? found : undefined;
    },
    { timeoutMs: 30_000 },
  );
  const email = await getSentEmail(key, execution.sent_email_id!);
  expect(email.provider_message_id, 'the sent e-mail carries the SES message id').toEqual(expect.any(String));
  return { email, messageId: email.provider_message_id! };
}

/** When the local SES delivered the e-mail (its delivered log's own time). */
export function deliveredAt(email: SentEmail): string {
  const log = email.logs.find((l) => l.status === SENT_STATUS.delivered);
  expect(log, 'a delivered log').toBeDefined();
  return log!.created_at;
}

// ---------------------------------------------------------------------------------------------------------------
// SES notifications (fixtures)

export interface SesMail {
  messageId: string;
  timestamp: string;
  source: string;
  destination: string[];
  tags: Record<string, string[]>;
}

/** The `mail` object SES puts in every event of this e-mail: its message id, sender, recipient and send tags. */
export function sesMailOf(t: Pick<TrackedEmail, 'client' | 'email' | 'messageId'>): SesMail {
  return {
    messageId: t.messageId,
    timestamp: t.email.created_at,
    source: t.email.from_email,
    destination: [t.email.to_email],
    tags: {
      'ses:configuration-set': ['email-lifecycle'],
      client_id: [String(t.client.id)],
      execution_id: [String(t.email.execution_id)],
      sent_email_id: [t.email.id],
    },
  };
}

export interface EngagementOptions {
  userAgent?: string;
  ipAddress?: string;
}

/** SES event publishing records (`eventType`). */
export const sesEvent = {
  delivery: (mail: SesMail, timestamp: string) => ({
    eventType: 'Delivery',
    mail,
    delivery: {
      timestamp,
      processingTimeMillis: 812,
      recipients: mail.destination,
      smtpResponse: '250 2.6.0 Message received',
      reportingMTA: 'a8-70.smtp-out.amazonses.com',
    },
  }),
  open: (mail: SesMail, timestamp: string, { userAgent = HUMAN_UA, ipAddress = HUMAN_IP }: EngagementOptions = {}) => ({
    eventType: 'Open',
    mail,
    open: { timestamp, userAgent, ipAddress },
  }),
  click: (
    mail: SesMail,
    timestamp: string,
    link: string,
    { userAgent = HUMAN_UA, ipAddress = HUMAN_IP }: EngagementOptions = {},
  ) => ({
    eventType: 'Click',
    mail,
    click: { timestamp, ipAddress, userAgent, link, linkTags: { campaign: ['welcome'] } },
  }),
  bounce: (mail: SesMail, timestamp: string, bounceType: 'Permanent' | 'Transient') => ({
    eventType: 'Bounce',
    mail,
    bounce: {
      bounceType,
      bounceSubType: 'General',
      bouncedRecipients: [
        bounceType === 'Permanent'
          ? {
              emailAddress: mail.destination[0],
              action: 'failed',
              status: '5.1.1',
              diagnosticCode: 'smtp; 550 5.1.1 user unknown',
            }
          : {
              emailAddress: mail.destination[0],
              action: 'delayed',
              status: '4.2.2',
              diagnosticCode: 'smtp; 452 4.2.2 mailbox full',
            },
      ],
      timestamp,
      feedbackId: `${randomUUID()}-000000`,
      reportingMTA: 'dns; a8-70.smtp-out.amazonses.com',
    },
  }),
  complaint: (mail: SesMail, timestamp: string) => ({
    eventType: 'Complaint',
    mail,
    complaint: {
      complainedRecipients: [{ emailAddress: mail.destination[0] }],
      timestamp,
      feedbackId: `${randomUUID()}-000000`,
      userAgent: 'Yahoo!-Mail-Feedback/2.0',
      complaintFeedbackType: 'abuse',
      arrivalDate: timestamp,
    },
  }),
};

/** An identity notification (`notificationType`), as SES sends for an identity's Delivery topic; no tags. */
export const identityDelivery = (mail: SesMail, timestamp: string) => ({
  notificationType: 'Delivery',
  mail: {
    timestamp: mail.timestamp,
    messageId: mail.messageId,
    source: mail.source,
    sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/example.com',
    sourceIp: '198.51.100.10',
    sendingAccountId: '123456789012',
    destination: mail.destination,
  },
  delivery: {
    timestamp,
    processingTimeMillis: 546,
    recipients: mail.destination,
    smtpResponse: '250 ok:  Message 64111812 accepted',
    remoteMtaIp: '203.0.113.25',
    reportingMTA: 'a8-70.smtp-out.amazonses.com',
  },
});

/** The SNS envelope SNS delivers an SES event in; the same `messageId` means the same notification. */
export const snsEnvelope = (event: object, messageId: string = randomUUID()) => ({
  Type: 'Notification',
  MessageId: messageId,
  TopicArn: 'arn:aws:sns:us-east-1:123456789012:email-lifecycle-ses-status',
  Message: JSON.stringify(event),
  Timestamp: new Date().toISOString(),
  SignatureVersion: '1',
  Signature:
    'EXAMPLEpH+DcEwjAPg8O9mY8dReBSwksfg2S7WKQcikcNKWLQjwu6A4VbeS0QHVCkhRS7fUQvi2egU3N858fiTDN6bkkOxYDVrY0Ad8L10Hs3zH81mtnPk5uvvolIC1CXGu43obcgFxeL3khZl8IKvO61GWB6jI9b5+gLPoBc1Q=',
  SigningCertURL: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem',
  UnsubscribeURL:
    'https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=arn:aws:sns:us-east-1:123456789012:email-lifecycle-ses-status:0000',
});

// ---------------------------------------------------------------------------------------------------------------
// Injecting notifications

/** POST /dev/ses-events, without any credentials (the route is public and local only). */
export const postSesEvent = (body: unknown) => request('POST', '/dev/ses-events', { body });

/** POST /dev/ses-events, asserting the 202 (set-up steps). */
export async function injectSesEvent(body: unknown): Promise<void> {
  const res = await postSesEvent(body);
  expect(res.status, `POST /dev/ses-events: ${res.text}`).toBe(202);
}

/** Injects `event` (in an SNS envelope) and waits for the log of the notification at `at` on the tracked e-mail. */
export async function injectAndAwait(
  t: TrackedEmail,
  event: object,
  at: string,
): Promise<{ email: SentEmail; log: LogItem }> {
  await injectSesEvent(snsEnvelope(event));
  return awaitLogAt(t.client.api_key, t.email.id, at);
}

/**
 * A settle point for "nothing changed" assertions: injects a Delivery of the tracked e-mail (it changes no status and
 * no figure), waits for its log and returns its time (leave that log out with `withoutLogsAt`). The status queue
 * takes notifications in the order they arrived, so what was injected before has been handled by then — unless
 * it was still running beside the settle notification, in which case the test may pass where it should not, never
 * the other way round.
 */
export async function settle(t: TrackedEmail): Promise<string> {
  const at = new Date().toISOString();
  await injectAndAwait(t, sesEvent.delivery(sesMailOf(t), at), at);
  return at;
}
