import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../api/openapi.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError } from '../../ui/field-error.js';
import { When } from '../../ui/when.js';
import type { PageProps } from '../../page.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { SecretOnce } from '../../ui/secret-once.js';

type ApiKey = components['schemas']['ApiKeyListed'];

/** Who made the key, as the list names it: its creator, or the admin CLI's / an API key's rotation when no user did. */
export function creatorOf(key: ApiKey): string {
  if (key.creator) return `${key.creator.name} (${key.creator.email})`;
  return key.created_by === null ? 'Set up with the account' : 'A removed user';
}

/** Why a disabled key is off when it was not its own switch: it ended with its user. */
const HOLDER_REASON = {
  holder_removed: 'its user was removed',
  holder_demoted: 'its user may no longer hold keys',
} as const;

/**
 * API keys (issue 25 §1; the accounts issue's session-only routes, roles with `keys`): every key with its label,
 * masked, and who created it; a new key shown in full once, with a copy button; disable, enable, delete. A key that
 * ended with its user (removed, or given a role without keys) says so and cannot be enabled again.
 */
export function ApiKeysPage({ api }: PageProps) {
  const [keys, setKeys] = useState<ApiKey[] | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();
  const [label, setLabel] = useState('');
  const [createFailure, setCreateFailure] = useState<Failure | undefined>();
  const [created, setCreated] = useState<{ label: string; key: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    let current = true;
    answerOf(api.GET('/api/v1/client/api-keys'), 'Reading the API keys').then(
      (answer) => current && setKeys(answer.data.api_keys),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api, loads]);

  async function onCreate(event: Event) {
    event.preventDefault();
    setBusy(true);
    setCreateFailure(undefined);
    setDone('');
    try {
      const answer = await answerOf(api.POST('/api/v1/client/api-keys', { body: { label: label.trim() } }), 'Creating the key');
      setCreated({ label: answer.data.label ?? '', key: answer.data.key });
      setLabel('');
      setLoads((n) => n + 1);
    } catch (error) {
      setCreateFailure(failureOfError(error));
    } finally {
      setBusy(false);
    }
  }

  async function act(key: ApiKey, what: 'enable' | 'disable' | 'delete') {
    setBusy(true);
    setFailure(undefined);
    setDone('');
    const path = { params: { path: { id: String(key.id) } } };
    try {
      if (what === 'delete') await answerOf(api.DELETE('/api/v1/client/api-keys/{id}', path), 'Deleting the key');
      else await answerOf(api.PATCH('/api/v1/client/api-keys/{id}', { ...path, body: { enabled: what === 'enable' } }), 'Changing the key');
      const name = key.label ?? key.masked_key;
      setDone(what === 'delete' ? `Key “${name}” deleted.` : what === 'disable' ? `Key “${name}” disabled: requests with it are refused.` : `Key “${name}” enabled.`);
      setLoads((n) => n + 1);
    } catch (error) {
      setFailure(failureOfError(error));
    } finally {
      setBusy(false);
    }
  }

  const labelError = fieldErrorOf(createFailure, 'label');
  return (
    <section aria-labelledby="st-keys-title">
      <div class="page-head">
        <h1 id="st-keys-title">API keys</h1>
      </div>
      <p class="hint">
        Your systems send events and read data with a key: <code>Authorization: Bearer &lt;key&gt;</code>. A key is shown in full
        once, when it is created; here it is masked. A key belongs to the user who created it: removing that user, or making
        them a member or viewer, disables it.
      </p>
      {created && <SecretOnce id="st-new-key" title={`New key “${created.label}”`} value={created.key} onDone={() => setCreated(undefined)} />}
      <form class="card st-inline" onSubmit={onCreate} aria-labelledby="st-create-key-title">
        <h2 id="st-create-key-title">Create a key</h2>
        <div class="st-field">
          <label for="st-key-label">Label</label>
          <input
            id="st-key-label"
            type="text"
            value={label}
            maxLength={100}
            autocomplete="off"
            aria-describedby={labelError ? 'st-key-label-error st-key-label-hint' : 'st-key-label-hint'}
            {...(labelError ? { 'aria-invalid': true as const } : {})}
            onInput={(event) => setLabel(event.currentTarget.value)}
          />
          <FieldError id="st-key-label-error" message={labelError} />
          <p id="st-key-label-hint" class="hint">
            What the key is for, e.g. “Production backend”.
          </p>
        </div>
        <FailureAlert failure={createFailure} shownAt={['label']} />
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </form>
      <FailureAlert failure={failure} />
      <p role="status" class="st-done">
        {done}
      </p>
      {!keys && !failure && <p aria-busy="true">Loading…</p>}
      {keys && keys.length === 0 && (
        <p class="hint">No key yet. Create one above, store it in your backend’s secrets, then report your first event with it.</p>
      )}
      {keys && keys.length > 0 && (
        <div class="st-scroll" tabIndex={0} role="region" aria-label="API keys table">
          <table id="st-keys-table" class="st-table">
            <caption>Your API keys</caption>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Key</th>
                <th scope="col">State</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.label ?? <span class="hint">(no label)</span>}</th>
                  <td>
                    <code>{key.masked_key}</code>
                  </td>
                  <td>
                    {key.enabled ? (
                      'Enabled'
                    ) : (
                      <>
                        Disabled <When at={key.disabled_at} />
                        {key.disabled_reason && <span class="hint">: {HOLDER_REASON[key.disabled_reason]}</span>}
                      </>
                    )}
                  </td>
                  <td class="st-break">
                    {creatorOf(key)}
                    {key.personal_for !== null && <span class="hint"> (personal key)</span>}
                  </td>
                  <td>
                    <When at={key.created_at} />
                  </td>
                  <td>
                    <When at={key.last_used_at} />
                  </td>
                  <td class="st-row-actions">
                    {!key.disabled_reason && (
                      <button type="button" class="st-small" disabled={busy} onClick={() => act(key, key.enabled ? 'disable' : 'enable')} aria-label={`${key.enabled ? 'Disable' : 'Enable'} ${key.label ?? key.masked_key}`}>
                        {key.enabled ? 'Disable' : 'Enable'}
                      </button>
                    )}
                    <ConfirmButton label="Delete" name={`Delete ${key.label ?? key.masked_key}`} confirm={`Delete ${key.label ?? key.masked_key} for good?`} busy={busy} danger onConfirm={() => act(key, 'delete')} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
