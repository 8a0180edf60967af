import { createHash } from 'node:crypto';
import * as z from '../../validation/zod.js';
import { SENT_STATUS, type SentStatus } from '../sent-emails/sent-email-record.js';

/**
 * SES status notifications, as the status queue receives them, read into one normalised event. Accepted:
 * - the SNS envelope (`Type: "Notification"`, `MessageId`, `Message` = the SES JSON as a string), unwrapped;
 * - a configuration-set event ("event publishing", `eventType`: Send, Delivery, Bounce, Complaint, Reject, Open,
 *   Click, DeliveryDelay, `Rendering Failure` — with the space, body key `failure` — and Subscription;
 *   docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html);
 * - an identity notification (`notificationType`: Bounce, Complaint, Delivery;
 *   docs.aws.amazon.com/ses/latest/dg/notification-contents.html).
 * AWS adds fields without notice, so unknown keys are ignored; only what the pipeline relies on is checked.
 * `events-samples/ses/` holds one of each.
 */
export type SesEventKind =
  | 'send'
  | 'delivery'
  | 'bounce'
  | 'complaint'
  | 'reject'
  | 'open'
  | 'click'
  | 'delivery_delay'
  | 'rendering_failure'
  | 'subscription';

export interface SesStatusEvent {
  /** The SNS MessageId, or a SHA-256 of the raw event: the same notification twice has the same key. */
  dedupeKey: string;
  /** SES's message id (`mail.messageId`): the sent e-mail's `provider_message_id`. */
  messageId: string;
  kind: SesEventKind;
  /** The log status (DESIGN.md §5); a transient or undetermined bounce is a delay (6), not a bounce. */
  status: SentStatus;
  /** The event's own time (ISO 8601), else the send time `mail.timestamp`. */
  occurredAt: string;
  /** A short human text: the bounce's diagnostic, the reject reason, the delay type… */
  statusText: string;
  bounce?: {
    type: 'Permanent' | 'Transient' | 'Undetermined';
    subType: string;
    permanent: boolean;
    suppressedByAccount: boolean;
  };
  complaintFeedbackType?: string;
  ipAddress?: string;
  userAgent?: string;
  url?: string;
  /** SES's own verdict on an open or click (`isBotEvent`), when the event carries one. */
  sesBotFlag?: boolean;
  /** Subscription events: whether the recipient unsubscribed from everything (false: preferences changed, e.g. opted back in). */
  unsubscribedAll?: boolean;
  /** `mail.tags`, first value of each (identity notifications carry none). */
  tags: Record<string, string>;
  recipient?: string;
}

export type ParseResult = { ok: true; event: SesStatusEvent } | { ok: false; reason: string };

const timestamp = z.string().check(z.refine((s) => !Number.isNaN(Date.parse(s)), 'not a timestamp'));
/** Long texts are cut, not refused: a notification is worth logging even when a client sends a novel. */
const clipped = (max: number) =>
  z.pipe(
    z.string(),
    z.transform((s: string) => s.slice(0, max)),
  );

export const SnsEnvelope = z.object({
  Type: z.string(),
  MessageId: z.string().check(z.minLength(1), z.maxLength(256)),
  TopicArn: z.optional(z.string()),
  Message: z.string(),
  Timestamp: z.optional(z.string()),
});

export const SesMail = z.object({
  messageId: z.string().check(z.minLength(1), z.maxLength(256)),
  timestamp: z.optional(timestamp),
  destination: z.optional(z.array(z.string())),
  // A malformed tag is dropped, not a reason to lose the notification.
  tags: z.optional(z.record(z.string(), z.catch(z.array(z.string()), []))),
});

const Recipient = z.object({
  emailAddress: z.optional(z.string()),
  status: z.optional(z.string()),
  diagnosticCode: z.optional(z.string()),
});
export const SesBounce = z.object({
  bounceType: z.enum(['Permanent', 'Transient', 'Undetermined']),
  bounceSubType: z.optional(z.string()),
  bouncedRecipients: z._default(z.array(Recipient), []),
  timestamp: z.optional(timestamp),
});
export const SesComplaint = z.object({
  complainedRecipients: z._default(z.array(Recipient), []),
  timestamp: z.optional(timestamp),
  complaintFeedbackType: z.optional(z.string()),
  complaintSubType: z.nullish(z.string()),
});
export const SesDelivery = z.object({
  timestamp: z.optional(timestamp),
  recipients: z._default(z.array(z.string()), []),
  smtpResponse: z.optional(z.string()),
});
/** The body of an Open (`open`) or a Click (`click`). */
export const SesEngagement = z.object({
  timestamp: z.optional(timestamp),
  ipAddress: z.optional(clipped(64)),
  userAgent: z.optional(clipped(2048)),
  link: z.optional(clipped(8192)),
  // "Likely" | "Unlikely" (SES, 2026); a boolean is read too. Anything else is no verdict, not an error.
  isBotEvent: z.optional(z.unknown()),
});
export const SesReject = z.object({ reason: z.optional(z.string()) });
export const SesRenderingFailure = z.object({
  errorMessage: z.optional(z.string()),
  templateName: z.optional(z.string()),
});
export const SesDeliveryDelay = z.object({
  timestamp: z.optional(timestamp),
  delayType: z.optional(z.string()),
  delayedRecipients: z._default(z.array(Recipient), []),
});
export const SesSubscription = z.object({
  timestamp: z.optional(timestamp),
  contactList: z.optional(z.string()),
  source: z.optional(z.string()),
  newTopicPreferences: z.optional(z.object({ unsubscribeAll: z.optional(z.boolean()) })),
});

/** What one event type adds to the common fields. */
type Detail = Partial<Omit<SesStatusEvent, 'dedupeKey' | 'messageId' | 'kind' | 'tags' | 'occurredAt'>> & {
  statusText: string;
  at?: string;
};
interface Reader {
  /** The key of the event's body object (`bounce`, `failure`, …). */
  body: string;
  read(value: unknown): Detail | string;
}
const reader = <S extends z.ZodMiniType>(
  body: string,
  schema: S,
  describe: (parsed: z.output<S>) => Detail,
): Reader => ({
  body,
  read(value) {
    const parsed = schema.safeParse(value ?? {});
    return parsed.success ? describe(parsed.data) : issueText(body, parsed.error);
  },
});

const STATUS_TEXT_MAX = 512;
/** A DSN diagnostic without its type: "smtp; 550 5.1.1 user unknown" reads "550 5.1.1 user unknown". */
const diagnostic = (recipients: ReadonlyArray<z.output<typeof Recipient>>) =>
  recipients[0]?.diagnosticCode?.replace(/^\s*smtp\s*;\s*/i, '');
const withText = (head: string, text: string | undefined) => (text ? `${head}: ${text}` : head);
const sesBotFlagOf = (value: unknown): boolean | undefined =>
  value === 'Likely' || value === true ? true : value === 'Unlikely' || value === false ? false : undefined;

const engagement = (kind: 'open' | 'click') =>
  reader(kind, SesEngagement, (e) => {
    const sesBotFlag = sesBotFlagOf(e.isBotEvent);
    return {
      at: e.timestamp,
      statusText: `${kind === 'open' ? 'Opened' : 'Clicked'}${sesBotFlag ? ' (SES: likely a bot)' : ''}`,
      ...(e.ipAddress ? { ipAddress: e.ipAddress } : {}),
      ...(e.userAgent ? { userAgent: e.userAgent } : {}),
      ...(kind === 'click' && e.link ? { url: e.link } : {}),
      ...(sesBotFlag !== undefined ? { sesBotFlag } : {}),
    };
  });

const READERS: Record<SesEventKind, Reader> = {
  // The executor logs `sent` itself when SES accepts the call; this is SES's own record of it (same status).
  send: reader('send', z.object({}), () => ({ statusText: 'SES Send event' })),
  delivery: reader('delivery', SesDelivery, (d) => ({
    at: d.timestamp,
    statusText: withText('Delivered', d.smtpResponse),
    ...(d.recipients[0] ? { recipient: d.recipients[0] } : {}),
  })),
  bounce: reader('bounce', SesBounce, (b) => {
    const permanent = b.bounceType === 'Permanent';
    const subType = b.bounceSubType ?? (b.bounceType === 'Undetermined' ? 'Undetermined' : 'General');
    return {
      at: b.timestamp,
      // SES stopped retrying a soft bounce; the address may work later, so it is a delay, not a bounce.
      status: permanent ? SENT_STATUS.bounced : SENT_STATUS.delivery_delayed,
      statusText: withText(`${b.bounceType} bounce (${subType})`, diagnostic(b.bouncedRecipients)),
      bounce: { type: b.bounceType, subType, permanent, suppressedByAccount: subType === 'OnAccountSuppressionList' },
      ...(b.bouncedRecipients[0]?.emailAddress ? { recipient: b.bouncedRecipients[0].emailAddress } : {}),
    };
  }),
  complaint: reader('complaint', SesComplaint, (c) => {
    const notes = [c.complaintFeedbackType, c.complaintSubType].filter(Boolean);
    return {
      at: c.timestamp,
      statusText: `Complaint${notes.length ? ` (${notes.join(', ')})` : ''}`,
      ...(c.complaintFeedbackType ? { complaintFeedbackType: c.complaintFeedbackType } : {}),
      ...(c.complainedRecipients[0]?.emailAddress ? { recipient: c.complainedRecipients[0].emailAddress } : {}),
    };
  }),
  reject: reader('reject', SesReject, (r) => ({ statusText: withText('Rejected by SES', r.reason) })),
  open: engagement('open'),
  click: engagement('click'),
  delivery_delay: reader('deliveryDelay', SesDeliveryDelay, (d) => ({
    at: d.timestamp,
    statusText: withText(`Delivery delayed${d.delayType ? ` (${d.delayType})` : ''}`, diagnostic(d.delayedRecipients)),
    ...(d.delayedRecipients[0]?.emailAddress ? { recipient: d.delayedRecipients[0].emailAddress } : {}),
  })),
  rendering_failure: reader('failure', SesRenderingFailure, (f) => ({
    statusText: withText(`Rendering failure${f.templateName ? ` (${f.templateName})` : ''}`, f.errorMessage),
  })),
  subscription: reader('subscription', SesSubscription, (s) => {
    const list = s.contactList ?? 'the contact list';
    const how = s.source ? ` (${s.source})` : '';
    const all = s.newTopicPreferences?.unsubscribeAll !== false;
    return {
      at: s.timestamp,
      // Only an unsubscribe moves the e-mail to `unsubscribed`; a preference change (an opt-in) says it was delivered.
      status: all ? SENT_STATUS.unsubscribed : SENT_STATUS.delivered,
      unsubscribedAll: all,
      statusText: `${all ? 'Unsubscribed from' : 'Subscription preferences changed in'} ${list}${how}`,
    };
  }),
};

const EVENT_TYPES: Record<string, SesEventKind> = {
  Send: 'send',
  Delivery: 'delivery',
  Bounce: 'bounce',
  Complaint: 'complaint',
  Reject: 'reject',
  Open: 'open',
  Click: 'click',
  DeliveryDelay: 'delivery_delay',
  'Rendering Failure': 'rendering_failure',
  Subscription: 'subscription',
};
const NOTIFICATION_TYPES: Record<string, SesEventKind> = {
  Bounce: 'bounce',
  Complaint: 'complaint',
  Delivery: 'delivery',
};

const STATUS_OF: Record<SesEventKind, SentStatus> = {
  send: SENT_STATUS.sent,
  delivery: SENT_STATUS.delivered,
  bounce: SENT_STATUS.bounced,
  complaint: SENT_STATUS.complained,
  reject: SENT_STATUS.rejected,
  open: SENT_STATUS.opened,
  click: SENT_STATUS.clicked,
  delivery_delay: SENT_STATUS.delivery_delayed,
  rendering_failure: SENT_STATUS.failed,
  subscription: SENT_STATUS.unsubscribed,
};

/**
 * Reads one status-queue body — an SNS envelope (unwrapped) or a raw SES event of either shape — into one
 * normalised event, or says precisely why it is none. Pure: no I/O, no clock.
 */
export function parseSesNotification(body: unknown): ParseResult {
  if (!isObject(body)) return { ok: false, reason: 'not an SES notification: the body is not a JSON object' };
  if (body['Type'] === undefined && body['TopicArn'] === undefined) return parseEvent(body, undefined);

  const envelope = SnsEnvelope.safeParse(body);
  if (!envelope.success) return { ok: false, reason: issueText('SNS envelope', envelope.error) };
  if (envelope.data.Type !== 'Notification')
    return { ok: false, reason: `SNS ${envelope.data.Type} message, not a Notification` };
  let inner: unknown;
  try {
    inner = JSON.parse(envelope.data.Message);
  } catch {
    return { ok: false, reason: 'SNS Message is not JSON' };
  }
  return parseEvent(inner, envelope.data.MessageId);
}

function parseEvent(raw: unknown, snsMessageId: string | undefined): ParseResult {
  if (!isObject(raw)) return { ok: false, reason: 'not an SES notification: the SNS Message is not a JSON object' };
  const field =
    raw['eventType'] !== undefined
      ? 'eventType'
      : raw['notificationType'] !== undefined
        ? 'notificationType'
        : undefined;
  if (!field) return { ok: false, reason: 'not an SES notification: neither eventType nor notificationType' };
  const typeName = raw[field];
  const kind =
    typeof typeName === 'string' ? (field === 'eventType' ? EVENT_TYPES : NOTIFICATION_TYPES)[typeName] : undefined;
  if (!kind)
    return {
      ok: false,
      reason: `unknown ${field} ${typeof typeName === 'string' ? typeName : JSON.stringify(typeName)}`,
    };

  const mail = SesMail.safeParse(raw['mail']);
  if (!mail.success) return { ok: false, reason: issueText('mail', mail.error) };
  const reader = READERS[kind];
  const detail = reader.read(raw[reader.body]);
  if (typeof detail === 'string') return { ok: false, reason: detail };

  const { at, ...rest } = detail;
  const occurredAt = at ?? mail.data.timestamp;
  if (!occurredAt) return { ok: false, reason: `no timestamp: neither ${reader.body}.timestamp nor mail.timestamp` };
  const recipient = rest.recipient ?? mail.data.destination?.[0];
  return {
    ok: true,
    event: {
      dedupeKey: snsMessageId ?? createHash('sha256').update(canonicalJson(raw)).digest('hex'),
      messageId: mail.data.messageId,
      kind,
      status: STATUS_OF[kind],
      occurredAt: new Date(occurredAt).toISOString(),
      ...rest,
      statusText: rest.statusText.slice(0, STATUS_TEXT_MAX),
      tags: firstValues(mail.data.tags),
      ...(recipient ? { recipient } : {}),
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const firstValues = (tags: Record<string, string[]> | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tags ?? {}).flatMap(([name, values]) => (values[0] === undefined ? [] : [[name, values[0]]])),
  );

/** "bounce.bounceType: Invalid option…": the first issue, at its dotted path under `root`. */
function issueText(root: string, error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `${root}: invalid`;
  return `${[root, ...issue.path.map(String)].join('.')}: ${issue.message}`;
}

/** JSON with object keys sorted at every depth: equal events give equal text whatever order their keys came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
