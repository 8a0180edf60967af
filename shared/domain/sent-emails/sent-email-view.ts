import { SENT_STATUS_TEXT, type SentEmailLogRecord, type SentEmailRecord } from './sent-email-record.js';

/** SPEC.md's Sent email with its log history, oldest first. */
export function toSentEmailView(e: SentEmailRecord, logs: SentEmailLogRecord[]) {
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
    status: e.status,
    status_text: SENT_STATUS_TEXT[e.status],
    status_updated_at: e.status_updated_at,
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
    })),
  };
}
