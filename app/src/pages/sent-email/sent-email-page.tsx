import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { EmailFrame } from './email-frame.js';
import { StatusLogs } from './status-logs.js';

type SentEmail = components['schemas']['SentEmail'];

/** Opens and clicks by people and by machines, from the logs (a machine's never counts as engagement). */
export function engagementOf(email: SentEmail) {
  const count = (status: string, bot: boolean) =>
    email.logs.filter((log) => log.status_text === status && log.is_bot === bot).length;
  return {
    opens: count('opened', false),
    botOpens: count('opened', true),
    clicks: count('clicked', false),
    botClicks: count('clicked', true),
  };
}

/** A sent e-mail (`/app/sent-email/<uuid>`): the message as sent, its status history, and which opens and clicks were machines'. */
export function SentEmailPage({ api, params }: PageProps) {
  const id = params['id'] ?? '';
  const loaded = useLoad(
    async (signal) => {
      if (!id) throw new Error('No e-mail named: open one from a contact’s activity.');
      return (
        await answerOf(
          api.GET('/api/v1/client/sent-emails/{id}', { params: { path: { id } }, signal }),
          'Reading the e-mail',
        )
      ).data;
    },
    [api, id],
  );
  const email = loaded.data;

  if (!email) {
    return (
      <section aria-labelledby="ct-sent-title">
        <PageHead id="ct-sent-title" title="Sent e-mail" />
        <LoadStatus loaded={loaded} />
      </section>
    );
  }
  const engagement = engagementOf(email);
  return (
    <section aria-labelledby="ct-sent-title">
      <PageHead id="ct-sent-title" title={<span class="wrap-anywhere">{email.subject || 'Sent e-mail (erased)'}</span>}>
        <Link page="contact" params={{ id: String(email.contact_id) }}>
          The contact
        </Link>
      </PageHead>
      <div class="cards">
        <section class="card" aria-labelledby="ct-sent-facts-title">
          <h2 id="ct-sent-facts-title">The e-mail</h2>
          <dl class="figures record-fields">
            <dt>Status</dt>
            <dd>
              <strong class={`outcome outcome-${email.status_text}`}>{email.status_text.replace('_', ' ')}</strong>{' '}
              since <When at={email.status_updated_at} />
            </dd>
            <dt>From</dt>
            <dd class="wrap-anywhere">{email.from_email}</dd>
            <dt>To</dt>
            <dd class="wrap-anywhere">{email.to_email || '(erased)'}</dd>
            <dt>Template</dt>
            <dd>{email.email_template_name}</dd>
            <dt>Queued</dt>
            <dd>
              <When at={email.created_at} />
            </dd>
            <dt>Workflow run</dt>
            <dd>#{email.execution_id}</dd>
            <dt>SES message id</dt>
            <dd class="wrap-anywhere">{email.provider_message_id ?? '—'}</dd>
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
          <p class="hint">
            Scanners and privacy proxies open and click on their own: they are marked in the history with the signal
            that gave them away.
          </p>
        </section>
      </div>
      <section class="page-section" aria-labelledby="ct-sent-history-title">
        <h2 id="ct-sent-history-title">Status history</h2>
        <StatusLogs logs={email.logs} label="Status history, oldest first" />
      </section>
      <section class="page-section" aria-labelledby="ct-sent-message-title">
        <h2 id="ct-sent-message-title">The message as sent</h2>
        <details>
          <summary>Text version</summary>
          <pre class="text-body">{email.text_body || '(empty)'}</pre>
        </details>
        <p>
          <a href={email.browser_url} target="_blank" rel="noopener noreferrer">
            Open the browser version in a new tab
          </a>
        </p>
        {email.html_body ? (
          <EmailFrame sentEmailId={email.id} title={`The e-mail "${email.subject}" as sent`} />
        ) : (
          <p class="hint">No HTML body (erased).</p>
        )}
      </section>
    </section>
  );
}
