import { useEffect, useState } from 'preact/hooks';
import {
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_SECRET_OVERLAP_MS,
  waitText,
} from '../../../../shared/public/webhook-rules.js';
import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { navigate } from '../../router.js';
import { can } from '../../session.js';
import { answerOf, type Failure, failureOfError } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { When } from '../../ui/when.js';
import type { PageProps } from '../../page.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { SecretOnce } from '../../ui/secret-once.js';

/** The server's retry waits as a sentence: "5 s, 5 min, … and 10 h". */
const RETRY_WAITS = (() => {
  const waits = WEBHOOK_RETRY_DELAYS_SECONDS.map(waitText);
  return `${waits.slice(0, -1).join(', ')} and ${waits[waits.length - 1]}`;
})();
import { bodyOfWebhook, draftOfWebhook, type Webhook, WebhookForm } from './webhook-form.js';
import { stateOf } from './webhooks-page.js';

type Attempt = components['schemas']['WebhookAttempt'];
type TestResult = components['schemas']['WebhookTestResult'];

/** Attempts per page of the list. */
export const ATTEMPTS_PER_PAGE = 20;

/**
 * One endpoint (`/app/webhook/N`): its settings (edit, disable/enable, delete), a test delivery, the secret's rotation
 * (the new one shown once), and its delivery attempts of the last 30 days, newest first, paged (`after` in the
 * address), each replayable. Reads for every role; `manage` changes.
 */
export function WebhookPage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  const after = params['after'] ?? '';
  const [webhook, setWebhook] = useState<Webhook | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();
  const [actionFailure, setActionFailure] = useState<Failure | undefined>();
  const [editFailure, setEditFailure] = useState<Failure | undefined>();
  const [draft, setDraft] = useState(draftOfWebhook());
  const [secret, setSecret] = useState<string | undefined>();
  const [test, setTest] = useState<TestResult | undefined>();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [done, setDone] = useState('');
  const [attemptLoads, setAttemptLoads] = useState(0);
  const editable = can(signedIn, 'manage');
  const path = { params: { path: { id } } };

  useEffect(() => {
    let current = true;
    setWebhook(undefined);
    setFailure(undefined);
    answerOf(api.GET('/api/v1/client/webhooks/{id}', path), 'Reading the endpoint').then(
      (answer) => {
        if (!current) return;
        setWebhook(answer.data);
        setDraft(draftOfWebhook(answer.data));
      },
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api, id]);

  /** Runs a change; its answer replaces the endpoint shown. */
  async function change(run: () => Promise<Webhook | undefined>, message: string): Promise<void> {
    setBusy(true);
    setActionFailure(undefined);
    setDone('');
    try {
      const changed = await run();
      if (changed) setWebhook(changed);
      setDone(message);
    } catch (error) {
      setActionFailure(failureOfError(error));
    } finally {
      setBusy(false);
    }
  }

  async function save() {
    setBusy(true);
    setEditFailure(undefined);
    setDone('');
    try {
      const answer = await answerOf(
        api.PATCH('/api/v1/client/webhooks/{id}', { ...path, body: bodyOfWebhook(draft) }),
        'Saving the endpoint',
      );
      setWebhook(answer.data);
      setDraft(draftOfWebhook(answer.data));
      setEditing(false);
      setDone('Endpoint saved.');
    } catch (error) {
      setEditFailure(failureOfError(error));
    } finally {
      setBusy(false);
    }
  }

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

  return (
    <section aria-labelledby="st-webhook-title">
      <p>
        <Link page="webhooks">← Webhooks</Link>
      </p>
      <div class="page-head">
        <h1 id="st-webhook-title">Webhook #{id}</h1>
      </div>
      <FailureAlert failure={failure} />
      {!webhook && !failure && <p aria-busy="true">Loading…</p>}
      {webhook && (
        <>
          <section class="card" aria-labelledby="st-webhook-about">
            <h2 id="st-webhook-about" class="st-break">
              {webhook.url}
            </h2>
            <dl class="figures st-fields">
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
              <div class="st-row-actions st-section">
                <button
                  type="button"
                  class="st-small"
                  disabled={busy}
                  onClick={() =>
                    change(async () => {
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
                  class="st-small"
                  disabled={busy}
                  onClick={() =>
                    change(
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
                    change(async () => {
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
                  onConfirm={async () => {
                    await change(async () => {
                      await answerOf(api.DELETE('/api/v1/client/webhooks/{id}', path), 'Deleting the endpoint');
                      navigate('webhooks');
                      return undefined;
                    }, 'Endpoint deleted.');
                  }}
                />
              </div>
            )}
            <FailureAlert failure={actionFailure} />
            <p role="status" class="st-done">
              {done}
            </p>
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
            <section class="card st-section" aria-labelledby="st-edit-webhook-title">
              <h2 id="st-edit-webhook-title">Settings of the endpoint</h2>
              {editing ? (
                <WebhookForm
                  idPrefix="st-edit-webhook"
                  draft={draft}
                  failure={editFailure}
                  busy={busy}
                  submit="Save endpoint"
                  onChange={setDraft}
                  onSubmit={save}
                  onCancel={() => {
                    setEditing(false);
                    setEditFailure(undefined);
                    setDraft(draftOfWebhook(webhook));
                  }}
                />
              ) : (
                <button type="button" class="st-small" onClick={() => setEditing(true)}>
                  Edit the endpoint
                </button>
              )}
            </section>
          )}
          <Attempts
            api={api}
            id={id}
            after={after}
            editable={editable}
            loads={attemptLoads}
            onReplayed={() => setAttemptLoads((n) => n + 1)}
          />
        </>
      )}
    </section>
  );
}

function TestOutcome({ result }: { result: TestResult }) {
  return (
    <div class={`st-test ${result.delivered ? 'st-ok' : 'st-bad'}`} aria-live="polite">
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

function Attempts(props: {
  api: Api;
  id: string;
  after: string;
  editable: boolean;
  loads: number;
  onReplayed: () => void;
}) {
  const { api, id, after, editable, loads, onReplayed } = props;
  const [page, setPage] = useState<{ attempts: Attempt[]; next: string | null } | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();
  const [replayFailure, setReplayFailure] = useState<Failure | undefined>();
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setPage(undefined);
    setFailure(undefined);
    const query = { limit: ATTEMPTS_PER_PAGE, ...(after ? { starting_after: after } : {}) };
    answerOf(
      api.GET('/api/v1/client/webhooks/{id}/attempts', { params: { path: { id }, query } }),
      'Reading the attempts',
    ).then(
      (answer) =>
        current &&
        setPage({
          attempts: answer.data.attempts,
          next: answer.data.has_more ? answer.data.next_starting_after : null,
        }),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api, id, after, loads]);

  async function replay(attempt: Attempt) {
    setBusy(true);
    setReplayFailure(undefined);
    setDone('');
    try {
      await answerOf(
        api.POST('/api/v1/client/webhooks/{id}/attempts/{attempt_id}/replay', {
          params: { path: { id, attempt_id: attempt.id } },
        }),
        'Replaying the event',
      );
      setDone(`Event ${attempt.message_id} (${attempt.event_type}) is queued again; its attempts show here.`);
      onReplayed();
    } catch (error) {
      setReplayFailure(failureOfError(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="st-section" aria-labelledby="st-attempts-title">
      <h2 id="st-attempts-title">Delivery attempts, last 30 days</h2>
      <p class="hint">
        A failed delivery is tried again up to {WEBHOOK_MAX_ATTEMPTS} times: after {RETRY_WAITS}.
      </p>
      <FailureAlert failure={failure} />
      <FailureAlert failure={replayFailure} />
      <p role="status" class="st-done">
        {done}
      </p>
      {!page && !failure && <p aria-busy="true">Loading…</p>}
      {page && page.attempts.length === 0 && (
        <p class="hint">
          {after ? 'No older attempt.' : 'No attempt yet: deliveries show here as your e-mail goes out.'}
        </p>
      )}
      {page && page.attempts.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a region that scrolls must take focus for a keyboard to scroll it (axe scrollable-region-focusable); a <section> would add a landmark heading level.
        <div class="st-scroll" tabIndex={0} role="region" aria-label="Attempts table">
          <table id="st-attempts-table" class="st-table">
            <caption>Attempts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Outcome</th>
                <th scope="col">Next attempt</th>
                {editable && <th scope="col">Action</th>}
              </tr>
            </thead>
            <tbody>
              {page.attempts.map((attempt) => (
                <tr key={attempt.id}>
                  <th scope="row">
                    <When at={attempt.attempted_at} />
                  </th>
                  <td>
                    <code>{attempt.event_type}</code>
                    <small class="st-break">{attempt.message_id}</small>
                  </td>
                  <td>
                    {attempt.attempt}
                    {attempt.replay && <small>replay</small>}
                  </td>
                  <td class={attempt.succeeded ? 'st-ok' : 'st-bad'}>
                    {attempt.succeeded ? 'Delivered' : 'Failed'}
                    {attempt.status_code !== null ? ` (${attempt.status_code})` : ''} in {attempt.duration_ms} ms
                    {attempt.error && <small class="st-break">{attempt.error}</small>}
                    {attempt.response_body && <small class="st-break">{attempt.response_body.slice(0, 200)}</small>}
                  </td>
                  <td>
                    <When at={attempt.next_attempt_at} />
                  </td>
                  {editable && (
                    <td>
                      <button
                        type="button"
                        class="st-small"
                        disabled={busy}
                        onClick={() => replay(attempt)}
                        aria-label={`Replay ${attempt.event_type} of ${attempt.attempted_at}`}
                      >
                        Replay
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && (page.next || after) && (
        <nav class="st-pages" aria-label="Pages of attempts">
          {after && (
            <Link page="webhook" params={{ id }}>
              Newest attempts
            </Link>
          )}
          {page.next && (
            <Link page="webhook" params={{ id, after: page.next }}>
              Older attempts
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
