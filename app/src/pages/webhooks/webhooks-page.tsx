import { useEffect, useState } from 'preact/hooks';
import { WEBHOOK_DISABLE_AFTER_MS, waitText } from '../../../../shared/public/webhook-rules.js';
import { Link } from '../../components/link.js';
import { can } from '../../session.js';
import { answerOf, type Failure, failureOfError } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { When } from '../../ui/when.js';
import type { PageProps } from '../../page.js';
import { SecretOnce } from '../../ui/secret-once.js';
import { bodyOfWebhook, draftOfWebhook, type Webhook, WebhookForm } from './webhook-form.js';

/** An endpoint's state in words: enabled, disabled (by the service after 5 failing days, or by hand), failing. */
export function stateOf(webhook: Webhook): string {
  if (!webhook.enabled)
    return webhook.disabled_reason === 'failing'
      ? `Disabled by the service: every delivery failed for ${waitText(WEBHOOK_DISABLE_AFTER_MS / 1000)}`
      : 'Disabled';
  return webhook.failing_since ? 'Enabled, failing' : 'Enabled';
}

/**
 * Webhooks: the client's endpoints, each linked to its page (attempts, replay, test, rotate
 * secret); a new one with the form, its signing secret shown once. Reads for every role; `manage` creates.
 */
export function WebhooksPage({ api, signedIn }: PageProps) {
  const [webhooks, setWebhooks] = useState<Webhook[] | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();
  const [draft, setDraft] = useState(draftOfWebhook());
  const [createFailure, setCreateFailure] = useState<Failure | undefined>();
  const [created, setCreated] = useState<{ id: number; secret: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const [loads, setLoads] = useState(0);
  const editable = can(signedIn, 'manage');

  useEffect(() => {
    let current = true;
    answerOf(api.GET('/api/v1/client/webhooks'), 'Reading the webhooks').then(
      (answer) => current && setWebhooks(answer.data.webhooks),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api, loads]);

  async function create() {
    setBusy(true);
    setCreateFailure(undefined);
    try {
      const answer = await answerOf(
        api.POST('/api/v1/client/webhooks', { body: bodyOfWebhook(draft) }),
        'Adding the endpoint',
      );
      setCreated({ id: answer.data.id, secret: answer.data.secret });
      setDraft(draftOfWebhook());
      setLoads((n) => n + 1);
    } catch (error) {
      setCreateFailure(failureOfError(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="st-webhooks-title">
      <div class="page-head">
        <h1 id="st-webhooks-title">Webhooks</h1>
      </div>
      <FailureAlert failure={failure} />
      {!webhooks && !failure && <p aria-busy="true">Loading…</p>}
      {created && (
        <>
          <SecretOnce
            id="st-new-secret"
            title={`Signing secret of endpoint #${created.id}`}
            value={created.secret}
            onDone={() => setCreated(undefined)}
          />
          <p>
            <Link page="webhook" params={{ id: String(created.id) }}>
              Open endpoint #{created.id}
            </Link>{' '}
            to send it a test event.
          </p>
        </>
      )}
      {webhooks && webhooks.length === 0 && (
        <div class="card empty">
          <h2>No webhook yet</h2>
          <p>
            A webhook tells your own systems what happens to your e-mail as it happens: each delivery, open, click,
            bounce or unsubscribe is POSTed to a URL of yours, signed so you can check it came from here.
          </p>
          <p>
            {editable
              ? 'First step: add an endpoint below with a URL your server answers, keep its signing secret, then press “Send a test event” on its page.'
              : 'An owner or an admin adds the endpoints.'}
          </p>
        </div>
      )}
      {webhooks && webhooks.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a region that scrolls must take focus for a keyboard to scroll it (axe scrollable-region-focusable); a <section> would add a landmark heading level.
        <div class="st-scroll" tabIndex={0} role="region" aria-label="Endpoints table">
          <table id="st-webhooks-table" class="st-table">
            <caption>Your endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Event types</th>
                <th scope="col">State</th>
                <th scope="col">Secret</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.map((webhook) => (
                <tr key={webhook.id}>
                  <th scope="row" class="st-break">
                    <Link page="webhook" params={{ id: String(webhook.id) }}>
                      {webhook.url}
                    </Link>
                    {webhook.description && <small>{webhook.description}</small>}
                  </th>
                  <td>
                    {webhook.event_types ? webhook.event_types.join(', ') : 'Every type'}
                    {webhook.humans_only && <small>humans only</small>}
                  </td>
                  <td>
                    {stateOf(webhook)}
                    {webhook.failing_since && (
                      <small>
                        failing since <When at={webhook.failing_since} />
                      </small>
                    )}
                  </td>
                  <td>
                    <code>{webhook.masked_secret}</code>
                  </td>
                  <td>
                    <When at={webhook.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {webhooks && editable && (
        <section class="card st-section" aria-labelledby="st-new-webhook-title">
          <h2 id="st-new-webhook-title">Add an endpoint</h2>
          <WebhookForm
            idPrefix="st-new-webhook"
            draft={draft}
            failure={createFailure}
            busy={busy}
            submit="Add endpoint"
            onChange={setDraft}
            onSubmit={create}
          />
        </section>
      )}
    </section>
  );
}
