import type { components } from '../../api/openapi.js';
import { When } from '../../ui/when.js';

export type SentEmailLog = components['schemas']['SentEmailLog'];

/** Why the service took an open or click for a machine's (`bot_reason`, shared/domain/tracking/bot-detection.ts). */
export const BOT_REASON_TEXT: Record<string, string> = {
  ses_flag: 'SES marked it as automated',
  security_scanner: 'a mail security scanner (its user agent or network)',
  apple_mail_privacy: 'Apple Mail Privacy Protection preloads every image',
  image_proxy: "a mailbox's image proxy fetched the pixel",
  isbot_user_agent: 'a crawler or automation user agent',
  too_fast: 'clicked within seconds of the delivery, faster than a person',
  all_links_same_second: 'several links clicked within one second',
};

export const botReasonText = (reason: string | null): string =>
  reason ? (BOT_REASON_TEXT[reason] ?? reason) : 'no reason recorded';

/** One status log: when, what, and for an open or click whether a person or a machine made it, and why. */
export function LogEntry({ log }: { log: SentEmailLog }) {
  const engagement = log.status_text === 'opened' || log.status_text === 'clicked';
  return (
    <>
      <When at={log.created_at} />{' '}
      <strong class={`outcome outcome-${log.status_text}`}>{log.status_text.replace('_', ' ')}</strong>
      {engagement &&
        (log.is_bot ? (
          <span class="by-machine">
            {' '}
            by a machine: {botReasonText(log.bot_reason)} <code>{log.bot_reason ?? ''}</code>
          </span>
        ) : (
          ' by a person'
        ))}
      {log.url && (
        <>
          {' '}
          on <code class="log-url">{log.url}</code>
        </>
      )}
      {log.detail && <span class="log-detail"> — {log.detail}</span>}
    </>
  );
}

/** The logs of a sent e-mail, oldest first as the API gives them. */
export function StatusLogs({ logs, label }: { logs: SentEmailLog[]; label: string }) {
  if (logs.length === 0) return <p class="hint">No status recorded yet.</p>;
  return (
    <ol class="status-logs" aria-label={label}>
      {logs.map((log) => (
        <li key={log.id} class={log.is_bot ? 'log-by-machine' : undefined}>
          <LogEntry log={log} />
        </li>
      ))}
    </ol>
  );
}
