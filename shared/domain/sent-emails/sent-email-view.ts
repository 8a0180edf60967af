import * as z from '../../validation/zod.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { nextEmailStatus } from '../tracking/status-rank.js';
import {
  SENT_STATUS,
  SENT_STATUS_TEXT,
  type SentEmailLogRecord,
  type SentEmailRecord,
  type SentStatus,
} from './sent-email-record.js';

/**
 * The e-mail's status is the highest-ranked status among its record (the engine's queued / sent / failed) and its
 * logs (every SES notification adds one, in any order): it never moves backwards (status-rank.ts). Its time is that
 * of the log that first reached it.
 */
export function effectiveStatus(
  e: Pick<SentEmailRecord, 'status' | 'status_updated_at'>,
  logs: readonly SentEmailLogRecord[],
): { status: SentStatus; at: string } {
  let status = e.status;
  let at = e.status_updated_at;
  for (const log of logs) {
    const next = nextEmailStatus(status, log.status);
    if (next !== status) (status = next), (at = log.created_at);
  }
  return { status, at };
}

const SENT_STATUS_VALUES = Object.values(SENT_STATUS);
/** A sent-email (or log) status value (DESIGN.md §5) and its name. */
export const sentStatus = z.int().check(
  z.gte(Math.min(...SENT_STATUS_VALUES)),
  z.lte(Math.max(...SENT_STATUS_VALUES)),
  z.meta({
    description: Object.entries(SENT_STATUS)
      .map(([name, value]) => `${value} ${name}`)
      .join(', '),
  }),
);
export const sentStatusText = z.enum(Object.keys(SENT_STATUS) as [string, ...string[]]);

/** One entry of a sent e-mail's history (OpenAPI `SentEmailLog`): every provider event adds one. */
export const SentEmailLogView = z
  .object({
    id: z.string(),
    created_at: UtcTimestamp,
    status: sentStatus,
    status_text: sentStatusText,
    provider_message_id: z.nullable(z.string()),
    url: z.nullable(z.string()).check(z.meta({ description: 'The link of a click' })),
    ip_address: z.nullable(z.string()),
    user_agent: z.nullable(z.string()),
    is_bot: z
      .boolean()
      .check(z.meta({ description: 'An open or click made by a machine (security scanner, prefetch)' })),
    bot_reason: z.nullable(z.string()).check(z.meta({ description: 'Extra: which signal made it a machine event' })),
    detail: z.nullable(z.string()).check(z.meta({ description: "Extra: the provider's words (bounce diagnostics)" })),
  })
  .check(z.meta({ id: 'SentEmailLog' }));

/** SPEC.md's Sent email (OpenAPI `SentEmail`). */
export const SentEmailView = z
  .object({
    id: z.guid(),
    client_id: z.int().check(z.gte(1)),
    contact_id: z.int().check(z.gte(1)),
    email_template_id: z.int().check(z.gte(1)),
    email_template_name: z.string(),
    from_email: z.string().check(z.meta({ examples: ['Acme <hello@acme.example>'] })),
    to_email: z.string(),
    subject: z.string(),
    html_body: z.string(),
    text_body: z.string(),
    browser_url: z.url().check(z.meta({ description: 'The e-mail in a browser (`/v/{token}`)' })),
    provider_message_id: z.nullable(z.string()),
    status: sentStatus.check(z.meta({ description: 'The highest-ranked status reached; it never moves backwards' })),
    status_text: sentStatusText,
    status_updated_at: UtcTimestamp,
    created_at: UtcTimestamp,
    execution_id: z.int().check(z.gte(1), z.meta({ description: 'Extra: the execution that sent it' })),
    logs: z.array(SentEmailLogView).check(z.meta({ description: 'Oldest first' })),
  })
  .check(z.meta({ id: 'SentEmail', description: 'An e-mail the service sent, with its log history.' }));
export type SentEmailView = z.output<typeof SentEmailView>;

/** SPEC.md's Sent email with its log history, oldest first. */
export function toSentEmailView(e: SentEmailRecord, logs: SentEmailLogRecord[]): SentEmailView {
  const current = effectiveStatus(e, logs);
  return {
    id: e.id,
    client_id: e.client_id,
    contact_id: e.contact_id,
    email_template_id: e.email_template_id,
    email_template_name: e.email_template_name,
    from_email: e.from_email,
    to_email: e.to_email,
    subject: e.subject,
    html_body: e.html_body,
    text_body: e.text_body,
    browser_url: e.browser_url,
    provider_message_id: e.provider_message_id ?? null,
    status: current.status,
    status_text: SENT_STATUS_TEXT[current.status],
    status_updated_at: current.at,
    created_at: e.created_at,
    execution_id: e.execution_id,
    logs: logs.map(toSentEmailLogView),
  };
}

/** One log of a sent e-mail as the API shows it (the e-mail's view and the contact activity timeline). */
export function toSentEmailLogView(l: SentEmailLogRecord): z.output<typeof SentEmailLogView> {
  return {
    id: l.id,
    created_at: l.created_at,
    status: l.status,
    status_text: SENT_STATUS_TEXT[l.status],
    provider_message_id: l.provider_message_id ?? null,
    url: l.url ?? null,
    ip_address: l.ip_address ?? null,
    user_agent: l.user_agent ?? null,
    is_bot: l.is_bot ?? false,
    // Extras (documented): why a log counts as a machine, and the provider's words (bounce diagnostics).
    bot_reason: l.bot_reason ?? null,
    detail: l.detail ?? null,
  };
}
