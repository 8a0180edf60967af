import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf, type Failure, failureOfError } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { When } from '../../ui/when.js';
import type { PageProps } from '../../page.js';
import { EmailFrame } from './email-frame.js';
import { StatusLogs } from './status-logs.js';

type SentEmail = components['schemas']['SentEmail'];

/** Opens and clicks by people and by machines, from the logs (a machine's never counts as engagement). */
export function engagementOf(email: SentEmail) {
  const count = (status: string, bot: boolean) => email.logs.filter((log) => log.status_text === status && log.is_bot === bot).length;
  return { opens: count('opened', false), botOpens: count('opened', true), clicks: count('clicked', false), botClicks: count('clicked', true) };
}

/** A sent e-mail (`/app/sent-email?id=<uuid>`): the message as sent, its status history, and which opens and clicks were machines'. */
export function SentEmailPage({ api, params }: PageProps) {
  const id = params['id'] ?? '';
  const [email, setEmail] = useState<SentEmail | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();

  useEffect(() => {
    let current = true;
    setEmail(undefined);
    setFailure(id ? undefined : { message: 'No e-mail named: open one from a contact’s activity.', errors: [] });
    if (!id) return;
    answerOf(api.GET('/api/v1/client/sent-emails/{id}', { params: { path: { id } } }), 'Reading the e-mail').then(
      (answer) => current && setEmail(answer.data),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api, id]);

  if (!email) {
    return (
      <section aria-labelledby="ct-sent-title">
        <h1 id="ct-sent-title">Sent e-mail</h1>
        <FailureAlert failure={failure} />
        {!failure && <p aria-busy="true">Loading…</p>}
      </section>
    );
  }
  const engagement = engagementOf(email);
  return (
    <section aria-labelledby="ct-sent-title">
      <div class="page-head">
        <h1 id="ct-sent-title" class="ct-break">
          {email.subject || 'Sent e-mail (erased)'}
        </h1>
        <Link page="contact" params={{ id: String(email.contact_id) }}>
          The contact
        </Link>
      </div>
      <div class="cards">
        <section class="card" aria-labelledby="ct-sent-facts-title">
          <h2 id="ct-sent-facts-title">The e-mail</h2>
          <dl class="figures ct-fields">
            <dt>Status</dt>
            <dd>
              <strong class={`ct-status ct-status-${email.status_text}`}>{email.status_text.replace('_', ' ')}</strong> since{' '}
              <When at={email.status_updated_at} />
            </dd>
            <dt>From</dt>
            <dd class="ct-break">{email.from_email}</dd>
            <dt>To</dt>
            <dd class="ct-break">{email.to_email || '(erased)'}</dd>
            <dt>Template</dt>
            <dd>{email.email_template_name}</dd>
            <dt>Queued</dt>
            <dd>
              <When at={email.created_at} />
            </dd>
            <dt>Workflow run</dt>
            <dd>#{email.execution_id}</dd>
            <dt>SES message id</dt>
            <dd class="ct-break">{email.provider_message_id ?? '—'}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="ct-sent-engagement-title">
          <h2 id="ct-sent-engagement-title">Opens and clicks</h2>
          <dl class="figures">
            <dt>Opens by a person</dt>
            <dd>{engagement.opens}</dd>
            <dt>Clicks by a person</dt>
            <dd>{engagement.clicks}</dd>
            <dt>Opens by machines</dt>
            <dd>{engagement.botOpens}</dd>
            <dt>Clicks by machines</dt>
            <dd>{engagement.botClicks}</dd>
          </dl>
          <p class="hint">Scanners and privacy proxies open and click on their own: they are marked in the history with the signal that gave them away.</p>
        </section>
      </div>
      <section class="ct-section" aria-labelledby="ct-sent-history-title">
        <h2 id="ct-sent-history-title">Status history</h2>
        <StatusLogs logs={email.logs} label="Status history, oldest first" />
      </section>
      <section class="ct-section" aria-labelledby="ct-sent-message-title">
        <h2 id="ct-sent-message-title">The message as sent</h2>
        <details>
          <summary>Text version</summary>
          <pre class="ct-text-body">
            {email.text_body || '(empty)'}
          </pre>
        </details>
        <p>
          <a href={email.browser_url} target="_blank" rel="noopener noreferrer">
            Open the browser version in a new tab
          </a>
        </p>
        {email.html_body ? <EmailFrame sentEmailId={email.id} title={`The e-mail "${email.subject}" as sent`} /> : <p class="hint">No HTML body (erased).</p>}
      </section>
    </section>
  );
}
