import { useState } from 'preact/hooks';
import {
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_SECRET_OVERLAP_MS,
  waitText,
} from '../../../../shared/public/webhook-rules.js';
import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { navigate } from '../../router.js';
import { can } from '../../session.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { type Column, DataTable } from '../../ui/data-table.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { PageHead } from '../../ui/page-head.js';
import { SecretOnce } from '../../ui/secret-once.js';
import { ActionStatus, Done, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { bodyOfWebhook, draftOfWebhook, stateOf, type Webhook, WebhookForm } from './webhook-form.js';

type Attempt = components['schemas']['WebhookAttempt'];
type TestResult = components['schemas']['WebhookTestResult'];

/** Attempts per page of the list. */
export const ATTEMPTS_PER_PAGE = 20;

/** The server's retry waits as a sentence: "5 s, 5 min, … and 10 h". */
const RETRY_WAITS = (() => {
  const waits = WEBHOOK_RETRY_DELAYS_SECONDS.map(waitText);
  return `${waits.slice(0, -1).join(', ')} and ${waits[waits.length - 1]}`;
})();

/**
 * One endpoint (`/app/webhook/N`): its settings (edit, disable/enable, delete), a test delivery, the secret's rotation
 * (the new one shown once), and its delivery attempts of the last 30 days, newest first, paged (`after` in the
 * address), each replayable. Reads for every role; `manage` changes.
 */
export function WebhookPage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  if (!id) {
    return (
      <section>
        <h1>Webhook</h1>
        <p>
          No endpoint named: open one from <Link page="webhooks">Webhooks</Link>.
        </p>
      </section>
    );
  }
  // Another endpoint is another page: nothing of the one before (a draft, a secret, a test) stays.
  return <Endpoint key={id} api={api} id={id} after={params['after'] ?? ''} editable={can(signedIn, 'manage')} />;
}

function Endpoint(props: { api: Api; id: string; after: string; editable: boolean }) {
  const { api, id, after, editable } = props;
  const path = { params: { path: { id } } };
  const endpoint = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/webhooks/{id}', { ...path, signal }), 'Reading the endpoint')).data,
    [api, id],
  );
  const [draft, setDraft] = useState(draftOfWebhook());
  const [secret, setSecret] = useState<string | undefined>();
  const [test, setTest] = useState<TestResult | undefined>();
  const [editing, setEditing] = useState(false);

  /** A change of the endpoint; its answer (when it is the endpoint) replaces the one shown. */
  const change = useAction(async (run: () => Promise<Webhook | undefined>, message: string) => {
    save.reset();
    const changed = await run();
    if (changed) endpoint.update(() => changed);
    return message;
  });
  const save = useAction(async () => {
    change.reset();
    const answer = await answerOf(
      api.PATCH('/api/v1/client/webhooks/{id}', { ...path, body: bodyOfWebhook(draft) }),
      'Saving the endpoint',
    );
    endpoint.update(() => answer.data);
    setEditing(false);
    return 'Endpoint saved.';
  });
  const busy = change.busy || save.busy;
  const webhook = endpoint.data;

  return (
    <section aria-labelledby="st-webhook-title">
      <p>
        <Link page="webhooks">← Webhooks</Link>
      </p>
      <PageHead id="st-webhook-title" title={`Webhook #${id}`} />
      <LoadStatus loaded={endpoint} />
      {webhook && (
        <>
          <section class="card" aria-labelledby="st-webhook-about">
            <h2 id="st-webhook-about" class="wrap-anywhere">
              {webhook.url}
            </h2>
            <dl class="figures wrap-anywhere">
              <dt>State</dt>
              <dd>{stateOf(webhook)}</dd>
              {webhook.failing_since && (
                <>
                  <dt>Failing since</dt>
                  <dd>
                    <When at={webhook.failing_since} />
                  </dd>
                </>
              )}
              <dt>Description</dt>
              <dd>{webhook.description || '—'}</dd>
              <dt>Event types</dt>
              <dd>{webhook.event_types ? webhook.event_types.join(', ') : 'Every type'}</dd>
              <dt>Humans only</dt>
              <dd>{webhook.humans_only ? 'Yes: machine opens and clicks are not sent' : 'No'}</dd>
              <dt>Signing secret</dt>
              <dd>
                <code>{webhook.masked_secret}</code>
                {webhook.previous_secret_expires_at && (
                  <small>
                    {' '}
                    the previous one also signs until <When at={webhook.previous_secret_expires_at} />
                  </small>
                )}
              </dd>
              <dt>Created</dt>
              <dd>
                <When at={webhook.created_at} />
              </dd>
            </dl>
            {editable && (
              <div class="row-actions page-section">
                <button
                  type="button"
                  class="small"
                  disabled={busy}
                  onClick={() =>
                    change.run(async () => {
                      setTest(undefined);
                      const answer = await answerOf(
                        api.POST('/api/v1/client/webhooks/{id}/test', path),
                        'The test delivery',
                      );
                      setTest(answer.data);
                      return undefined;
                    }, '')
                  }
                >
                  Send a test event
                </button>
                <button
                  type="button"
                  class="small"
                  disabled={busy}
                  onClick={() =>
                    change.run(
                      async () =>
                        (
                          await answerOf(
                            api.PATCH('/api/v1/client/webhooks/{id}', { ...path, body: { enabled: !webhook.enabled } }),
                            'Changing the endpoint',
                          )
                        ).data,
                      webhook.enabled
                        ? 'Endpoint disabled: nothing is delivered to it until it is enabled again.'
                        : 'Endpoint enabled.',
                    )
                  }
                >
                  {webhook.enabled ? 'Disable' : 'Enable'}
                </button>
                <ConfirmButton
                  label="Rotate secret"
                  confirm={`Make a new signing secret? The current one keeps signing for ${WEBHOOK_SECRET_OVERLAP_MS / 3_600_000} hours beside it.`}
                  busy={busy}
                  onConfirm={() =>
                    change.run(async () => {
                      const answer = await answerOf(
                        api.POST('/api/v1/client/webhooks/{id}/rotate-secret', path),
                        'Rotating the secret',
                      );
                      const { secret: fresh, ...rest } = answer.data;
                      setSecret(fresh);
                      return rest;
                    }, 'New signing secret made.')
                  }
                />
                <ConfirmButton
                  label="Delete"
                  name="Delete this endpoint"
                  confirm="Delete this endpoint and stop its deliveries?"
                  busy={busy}
                  danger
                  onConfirm={() =>
                    change.run(async () => {
                      await answerOf(api.DELETE('/api/v1/client/webhooks/{id}', path), 'Deleting the endpoint');
                      navigate('webhooks');
                      return undefined;
                    }, 'Endpoint deleted.')
                  }
                />
              </div>
            )}
            <FailureAlert failure={change.failure} />
            <Done text={change.done || save.done} />
            {test && <TestOutcome result={test} />}
          </section>
          {secret && (
            <SecretOnce
              id="st-rotated-secret"
              title="New signing secret"
              value={secret}
              onDone={() => setSecret(undefined)}
            />
          )}
          {editable && (
            <section class="card page-section" aria-labelledby="st-edit-webhook-title">
              <h2 id="st-edit-webhook-title">Settings of the endpoint</h2>
              {editing ? (
                <WebhookForm
                  idPrefix="st-edit-webhook"
                  draft={draft}
                  action={save}
                  submit="Save endpoint"
                  onChange={setDraft}
                  onCancel={() => {
                    setEditing(false);
                    save.reset();
                  }}
                />
              ) : (
                <button
                  type="button"
                  class="small"
                  onClick={() => {
                    setDraft(draftOfWebhook(webhook));
                    setEditing(true);
                  }}
                >
                  Edit the endpoint
                </button>
              )}
            </section>
          )}
          <Attempts api={api} id={id} after={after} editable={editable} />
        </>
      )}
    </section>
  );
}

function TestOutcome({ result }: { result: TestResult }) {
  return (
    <div class={`test-outcome ${result.delivered ? 'delivered' : 'undelivered'}`} aria-live="polite">
      <p>
        <strong>{result.delivered ? 'Test delivered' : 'Test not delivered'}</strong>
        {result.status_code !== null
          ? `: the endpoint answered ${result.status_code}`
          : result.error
            ? `: ${result.error}`
            : ''}{' '}
        in {result.duration_ms} ms.
      </p>
      {result.response_body && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a long block that scrolls must take focus for a keyboard to scroll it (axe scrollable-region-focusable), and its label names it.
        <pre tabIndex={0} aria-label="What the endpoint answered">
          <code>{result.response_body}</code>
        </pre>
      )}
      <p class="hint">
        Delivery id <code>{result.message_id}</code>, event type <code>webhook.test</code>.
      </p>
    </div>
  );
}

function Attempts(props: { api: Api; id: string; after: string; editable: boolean }) {
  const { api, id, after, editable } = props;
  const page = useLoad(
    async (signal) => {
      const query = { limit: ATTEMPTS_PER_PAGE, ...(after ? { starting_after: after } : {}) };
      const answer = await answerOf(
        api.GET('/api/v1/client/webhooks/{id}/attempts', { params: { path: { id }, query }, signal }),
        'Reading the attempts',
      );
      return { attempts: answer.data.attempts, next: answer.data.has_more ? answer.data.next_starting_after : null };
    },
    [api, id, after],
  );
  const replay = useAction(async (attempt: Attempt) => {
    await answerOf(
      api.POST('/api/v1/client/webhooks/{id}/attempts/{attempt_id}/replay', {
        params: { path: { id, attempt_id: attempt.id } },
      }),
      'Replaying the event',
    );
    page.reload();
    return `Event ${attempt.message_id} (${attempt.event_type}) is queued again; its attempts show here.`;
  });

  const columns: Column<Attempt>[] = [
    { head: 'When', rowHeader: true, cell: (attempt) => <When at={attempt.attempted_at} /> },
    {
      head: 'Event',
      cell: (attempt) => (
        <>
          <code>{attempt.event_type}</code>
          <small class="wrap-anywhere">{attempt.message_id}</small>
        </>
      ),
    },
    {
      head: 'Attempt',
      cell: (attempt) => (
        <>
          {attempt.attempt}
          {attempt.replay && <small>replay</small>}
        </>
      ),
    },
    {
      head: 'Outcome',
      cell: (attempt) => (
        <span class={attempt.succeeded ? 'delivered' : 'undelivered'}>
          {attempt.succeeded ? 'Delivered' : 'Failed'}
          {attempt.status_code !== null ? ` (${attempt.status_code})` : ''} in {attempt.duration_ms} ms
          {attempt.error && <small class="wrap-anywhere">{attempt.error}</small>}
          {attempt.response_body && <small class="wrap-anywhere">{attempt.response_body.slice(0, 200)}</small>}
        </span>
      ),
    },
    { head: 'Next attempt', cell: (attempt) => <When at={attempt.next_attempt_at} /> },
  ];
  if (editable)
    columns.push({
      head: 'Action',
      cell: (attempt) => (
        <button
          type="button"
          class="small"
          disabled={replay.busy}
          onClick={() => replay.run(attempt)}
          aria-label={`Replay ${attempt.event_type} of ${attempt.attempted_at}`}
        >
          Replay
        </button>
      ),
    });

  const data = page.data;
  return (
    <section class="page-section" aria-labelledby="st-attempts-title">
      <h2 id="st-attempts-title">Delivery attempts, last 30 days</h2>
      <p class="hint">
        A failed delivery is tried again up to {WEBHOOK_MAX_ATTEMPTS} times: after {RETRY_WAITS}.
      </p>
      <LoadStatus loaded={page} />
      <ActionStatus action={replay} />
      {data && (
        <DataTable
          id="st-attempts-table"
          label="Attempts table"
          caption="Attempts, newest first"
          rows={data.attempts}
          columns={columns}
          empty={
            <p class="hint">
              {after ? 'No older attempt.' : 'No attempt yet: deliveries show here as your e-mail goes out.'}
            </p>
          }
        />
      )}
      {data && (data.next || after) && (
        <nav class="pager" aria-label="Pages of attempts">
          {after && (
            <Link page="webhook" params={{ id }}>
              Newest attempts
            </Link>
          )}
          {data.next && (
            <Link page="webhook" params={{ id, after: data.next }}>
              Older attempts
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
