import { useState } from 'preact/hooks';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { DataTable } from '../../ui/data-table.js';
import { PageHead } from '../../ui/page-head.js';
import { SecretOnce } from '../../ui/secret-once.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { bodyOfWebhook, draftOfWebhook, stateOf, WebhookForm } from './webhook-form.js';

/**
 * Webhooks: the client's endpoints, each linked to its page (attempts, replay, test, rotate
 * secret); a new one with the form, its signing secret shown once. Reads for every role; `manage` creates.
 */
export function WebhooksPage({ api, signedIn }: PageProps) {
  const webhooks = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/webhooks', { signal }), 'Reading the webhooks')).data.webhooks,
    [api],
  );
  const [draft, setDraft] = useState(draftOfWebhook());
  const [created, setCreated] = useState<{ id: number; secret: string } | undefined>();
  const editable = can(signedIn, 'manage');

  const create = useAction(async () => {
    const answer = await answerOf(
      api.POST('/api/v1/client/webhooks', { body: bodyOfWebhook(draft) }),
      'Adding the endpoint',
    );
    setCreated({ id: answer.data.id, secret: answer.data.secret });
    setDraft(draftOfWebhook());
    webhooks.reload();
  });

  const list = webhooks.data;
  return (
    <section aria-labelledby="st-webhooks-title">
      <PageHead id="st-webhooks-title" title="Webhooks" />
      <LoadStatus loaded={webhooks} />
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
      {list && (
        <DataTable
          id="st-webhooks-table"
          label="Endpoints table"
          caption="Your endpoints"
          rows={list}
          empty={
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
          }
          columns={[
            {
              head: 'URL',
              rowHeader: true,
              class: 'wrap-anywhere',
              cell: (webhook) => (
                <>
                  <Link page="webhook" params={{ id: String(webhook.id) }}>
                    {webhook.url}
                  </Link>
                  {webhook.description && <small>{webhook.description}</small>}
                </>
              ),
            },
            {
              head: 'Event types',
              cell: (webhook) => (
                <>
                  {webhook.event_types ? webhook.event_types.join(', ') : 'Every type'}
                  {webhook.humans_only && <small>humans only</small>}
                </>
              ),
            },
            {
              head: 'State',
              cell: (webhook) => (
                <>
                  {stateOf(webhook)}
                  {webhook.failing_since && (
                    <small>
                      failing since <When at={webhook.failing_since} />
                    </small>
                  )}
                </>
              ),
            },
            { head: 'Secret', cell: (webhook) => <code>{webhook.masked_secret}</code> },
            { head: 'Created', cell: (webhook) => <When at={webhook.created_at} /> },
          ]}
        />
      )}
      {list && editable && (
        <section class="card page-section" aria-labelledby="st-new-webhook-title">
          <h2 id="st-new-webhook-title">Add an endpoint</h2>
          <WebhookForm
            idPrefix="st-new-webhook"
            draft={draft}
            action={create}
            submit="Add endpoint"
            onChange={setDraft}
          />
        </section>
      )}
    </section>
  );
}
