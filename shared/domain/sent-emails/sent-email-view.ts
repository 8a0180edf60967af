import { nextEmailStatus } from '../tracking/status-rank.js';
import { SENT_STATUS_TEXT, type SentEmailLogRecord, type SentEmailRecord, type SentStatus } from './sent-email-record.js';

/**
 * The e-mail's status is the highest-ranked status among its record (the engine's queued / sent / failed) and its
 * logs (every SES notification adds one, in any order): it never moves backwards (status-rank.ts). Its time is that
 * of the log that first reached it.
 */
export function effectiveStatus(e: SentEmailRecord, logs: readonly SentEmailLogRecord[]): { status: SentStatus; at: string } {
  let status = e.status;
  let at = e.status_updated_at;
  for (const log of logs) {
    const next = nextEmailStatus(status, log.status);
    if (next !== status) ((status = next), (at = log.created_at));
  }
  return { status, at };
}

/** SPEC.md's Sent email with its log history, oldest first. */
export function toSentEmailView(e: SentEmailRecord, logs: SentEmailLogRecord[]) {
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
    logs: logs.map((l) => ({
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
    })),
  };
}
