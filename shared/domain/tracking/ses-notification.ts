import { createHash } from 'node:crypto';
import { z } from 'zod';
import { SENT_STATUS, type SentStatus } from '../sent-emails/sent-email-record.js';

/**
 * SES status notifications, as the status queue receives them (issue 9 §1), normalised for the pipeline. Accepted:
 * - the SNS envelope SNS wraps them in (`Type: "Notification"`, `MessageId`, `Message` = the SES JSON as a string);
 * - a configuration-set event ("event publishing", `eventType`: Send, Delivery, Bounce, Complaint, Reject, Open,
 *   Click, DeliveryDelay, `Rendering Failure` — with the space — and Subscription; docs.aws.amazon.com/ses/latest/dg/
 *   event-publishing-retrieving-sns-contents.html);
 * - an identity notification (`notificationType`: Bounce, Complaint, Delivery; docs.aws.amazon.com/ses/latest/dg/
 *   notification-contents.html).
 * Unknown keys are ignored (AWS adds fields); what the pipeline relies on is checked.
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
  messageId: string;
  kind: SesEventKind;
  /** The log status (DESIGN.md §5); a transient bounce is a delay (6), not a bounce. */
  status: SentStatus;
  /** The event's own time (ISO 8601). */
  occurredAt: string;
  /** A short human text: the bounce's diagnostic, the reject reason, the delay type. */
  statusText?: string;
  bounce?: { type: 'Permanent' | 'Transient' | 'Undetermined'; subType: string; permanent: boolean; suppressedByAccount: boolean };
  complaintFeedbackType?: string;
  ipAddress?: string;
  userAgent?: string;
  url?: string;
  /** Set when the provider itself marks an open or click as automated (read when present). */
  sesBotFlag?: boolean;
  /** `mail.tags`, first value of each. */
  tags: Record<string, string>;
  recipient?: string;
}

export type ParseResult = { ok: true; event: SesStatusEvent } | { ok: false; reason: string };

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a timestamp');
const Mail = z.object({
  messageId: z.string().min(1).max(256),
  timestamp: isoTime.optional(),
  destination: z.array(z.string()).optional(),
  tags: z.record(z.string(), z.array(z.string())).optional(),
});
const Recipient = z.object({ emailAddress: z.string().optional(), status: z.string().optional(), diagnosticCode: z.string().optional() });
const Bounce = z.object({
  bounceType: z.enum(['Permanent', 'Transient', 'Undetermined']),
  bounceSubType: z.string().default('General'),
  bouncedRecipients: z.array(Recipient).default([]),
  timestamp: isoTime.optional(),
});
const Complaint = z.object({
  complainedRecipients: z.array(Recipient).default([]),
  timestamp: isoTime.optional(),
  complaintFeedbackType: z.string().optional(),
});
const Delivery = z.object({ timestamp: isoTime.optional(), recipients: z.array(z.string()).optional(), smtpResponse: z.string().optional() });
const Engagement = z.object({
  timestamp: isoTime.optional(),
  ipAddress: z.string().max(64).optional(),
  userAgent: z.string().max(2048).optional(),
  link: z.string().max(4096).optional(),
  isBotEvent: z.boolean().optional(),
});
const Reject = z.object({ reason: z.string().optional() });
const Failure = z.object({ errorMessage: z.string().optional(), templateName: z.string().optional() });
const DeliveryDelay = z.object({
  timestamp: isoTime.optional(),
  delayType: z.string().optional(),
  delayedRecipients: z.array(Recipient).default([]),
});
const Subscription = z.object({ timestamp: isoTime.optional(), contactList: z.string().optional() });

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
const NOTIFICATION_TYPES: Record<string, SesEventKind> = { Bounce: 'bounce', Complaint: 'complaint', Delivery: 'delivery' };

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

/** Reads one status-queue body: an SNS envelope (unwrapped) or a raw SES event of either shape. */
export function parseSesNotification(body: unknown): ParseResult {
  if (!isObject(body)) return { ok: false, reason: 'not a JSON object' };
  if (body['Type'] !== undefined || body['TopicArn'] !== undefined) {
    if (body['Type'] !== 'Notification') return { ok: false, reason: `SNS message of type ${String(body['Type'])}, not a Notification` };
    if (typeof body['Message'] !== 'string' || typeof body['MessageId'] !== 'string') {
      return { ok: false, reason: 'SNS envelope without Message or MessageId' };
    }
    let inner: unknown;
    try {
      inner = JSON.parse(body['Message']);
    } catch {
      return { ok: false, reason: 'SNS Message is not JSON' };
    }
    return parseEvent(inner, body['MessageId']);
  }
  return parseEvent(body, undefined);
}

function parseEvent(raw: unknown, snsMessageId: string | undefined): ParseResult {
  if (!isObject(raw)) return { ok: false, reason: 'the SES event is not a JSON object' };
  const typeName = raw['eventType'] ?? raw['notificationType'];
  if (typeof typeName !== 'string') return { ok: false, reason: 'neither eventType nor notificationType' };
  const kind = raw['eventType'] !== undefined ? EVENT_TYPES[typeName] : NOTIFICATION_TYPES[typeName];
  if (!kind) return { ok: false, reason: `unknown ${raw['eventType'] !== undefined ? 'eventType' : 'notificationType'} ${typeName}` };
  const mail = Mail.safeParse(raw['mail']);
  if (!mail.success) return { ok: false, reason: `mail: ${mail.error.issues[0]?.message ?? 'invalid'}` };

  const base = {
    dedupeKey: snsMessageId ?? createHash('sha256').update(canonicalJson(raw)).digest('hex'),
    messageId: mail.data.messageId,
    kind,
    status: STATUS_OF[kind],
    tags: Object.fromEntries(Object.entries(mail.data.tags ?? {}).flatMap(([k, v]) => (v[0] === undefined ? [] : [[k, v[0]]]))),
    ...(mail.data.destination?.[0] ? { recipient: mail.data.destination[0] } : {}),
  };
  const fallbackTime = mail.data.timestamp;
  const detail = (key: string) => raw[key];
  const read = <T extends z.ZodType>(schema: T, key: string): z.output<T> | string => {
    const parsed = schema.safeParse(detail(key) ?? {});
    return parsed.success ? parsed.data : `${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
  };
  const finish = (occurredAt: string | undefined, extra: Partial<SesStatusEvent>): ParseResult => {
    const at = occurredAt ?? fallbackTime;
    if (!at) return { ok: false, reason: 'no timestamp' };
    return { ok: true, event: { ...base, occurredAt: new Date(at).toISOString(), ...extra } };
  };

  switch (kind) {
    case 'bounce': {
      const b = read(Bounce, 'bounce');
      if (typeof b === 'string') return { ok: false, reason: b };
      const permanent = b.bounceType === 'Permanent';
      const diagnostic = b.bouncedRecipients[0]?.diagnosticCode;
      return finish(b.timestamp, {
        status: permanent ? SENT_STATUS.bounced : SENT_STATUS.delivery_delayed,
        bounce: { type: b.bounceType, subType: b.bounceSubType, permanent, suppressedByAccount: b.bounceSubType === 'OnAccountSuppressionList' },
        statusText: `${b.bounceType} bounce (${b.bounceSubType})${diagnostic ? `: ${diagnostic}` : ''}`,
      });
    }
    case 'complaint': {
      const c = read(Complaint, 'complaint');
      if (typeof c === 'string') return { ok: false, reason: c };
      return finish(c.timestamp, {
        ...(c.complaintFeedbackType ? { complaintFeedbackType: c.complaintFeedbackType } : {}),
        statusText: `Complaint${c.complaintFeedbackType ? ` (${c.complaintFeedbackType})` : ''}`,
      });
    }
    case 'delivery': {
      const d = read(Delivery, 'delivery');
      if (typeof d === 'string') return { ok: false, reason: d };
      return finish(d.timestamp, d.smtpResponse ? { statusText: d.smtpResponse } : {});
    }
    case 'open':
    case 'click': {
      const e = read(Engagement, kind);
      if (typeof e === 'string') return { ok: false, reason: e };
      return finish(e.timestamp, {
        ...(e.ipAddress ? { ipAddress: e.ipAddress } : {}),
        ...(e.userAgent ? { userAgent: e.userAgent } : {}),
        ...(kind === 'click' && e.link ? { url: e.link } : {}),
        ...(e.isBotEvent !== undefined ? { sesBotFlag: e.isBotEvent } : {}),
      });
    }
    case 'reject': {
      const r = read(Reject, 'reject');
      if (typeof r === 'string') return { ok: false, reason: r };
      return finish(undefined, { statusText: `Rejected${r.reason ? `: ${r.reason}` : ''}` });
    }
    case 'rendering_failure': {
      const f = read(Failure, 'failure');
      if (typeof f === 'string') return { ok: false, reason: f };
      return finish(undefined, { statusText: `Rendering failure${f.errorMessage ? `: ${f.errorMessage}` : ''}` });
    }
    case 'delivery_delay': {
      const d = read(DeliveryDelay, 'deliveryDelay');
      if (typeof d === 'string') return { ok: false, reason: d };
      const diagnostic = d.delayedRecipients[0]?.diagnosticCode;
      return finish(d.timestamp, { statusText: `Delivery delayed${d.delayType ? ` (${d.delayType})` : ''}${diagnostic ? `: ${diagnostic}` : ''}` });
    }
    case 'subscription': {
      const s = read(Subscription, 'subscription');
      if (typeof s === 'string') return { ok: false, reason: s };
      return finish(s.timestamp, { statusText: `Unsubscribed through SES${s.contactList ? ` (${s.contactList})` : ''}` });
    }
    case 'send':
      // The executor's own `sent` log says SES accepted the call; this one is SES's Send event for it.
      return finish(undefined, { statusText: 'SES Send event' });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON with object keys sorted at every depth: equal events give equal text whatever order their keys came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
