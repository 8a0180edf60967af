import { useState } from 'preact/hooks';
import { API_KEY_LABEL_MAX } from '../../../../shared/public/account-rules.js';
import type { components } from '../../api/openapi.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { DataTable } from '../../ui/data-table.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Field } from '../../ui/field.js';
import { Form } from '../../ui/form.js';
import { PageHead } from '../../ui/page-head.js';
import { SecretOnce } from '../../ui/secret-once.js';
import { ActionStatus, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';

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
 * API keys (routes a dashboard session calls, never an API key; roles with `keys`): every key with its label,
 * masked, and who created it; a new key shown in full once, with a copy button; disable, enable, delete. A key that
 * ended with its user (removed, or given a role without keys) says so and cannot be enabled again.
 */
export function ApiKeysPage({ api }: PageProps) {
  const keys = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/api-keys', { signal }), 'Reading the API keys')).data.api_keys,
    [api],
  );
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<{ label: string; key: string } | undefined>();

  const change = useAction(async (key: ApiKey, what: 'enable' | 'disable' | 'delete') => {
    const path = { params: { path: { id: String(key.id) } } };
    if (what === 'delete') await answerOf(api.DELETE('/api/v1/client/api-keys/{id}', path), 'Deleting the key');
    else
      await answerOf(
        api.PATCH('/api/v1/client/api-keys/{id}', { ...path, body: { enabled: what === 'enable' } }),
        'Changing the key',
      );
    keys.reload();
    const name = key.label ?? key.masked_key;
    if (what === 'delete') return `Key “${name}” deleted.`;
    return what === 'disable' ? `Key “${name}” disabled: requests with it are refused.` : `Key “${name}” enabled.`;
  });

  const create = useAction(async () => {
    change.reset();
    const answer = await answerOf(
      api.POST('/api/v1/client/api-keys', { body: { label: label.trim() } }),
      'Creating the key',
    );
    setCreated({ label: answer.data.label ?? '', key: answer.data.key });
    setLabel('');
    keys.reload();
  });

  const busy = create.busy || change.busy;
  return (
    <section aria-labelledby="st-keys-title">
      <PageHead id="st-keys-title" title="API keys" />
      <p class="hint">
        Your systems send events and read data with a key: <code>Authorization: Bearer &lt;key&gt;</code>. A key is
        shown in full once, when it is created; here it is masked. A key belongs to the user who created it: removing
        that user, or making them a member or viewer, disables it.
      </p>
      {created && (
        <SecretOnce
          id="st-new-key"
          title={`New key “${created.label}”`}
          value={created.key}
          onDone={() => setCreated(undefined)}
        />
      )}
      <Form
        class="card narrow-form"
        onSubmit={create.run}
        failure={create.failure}
        aria-labelledby="st-create-key-title"
      >
        <h2 id="st-create-key-title">Create a key</h2>
        <Field id="st-key-label" label="Label" name="label" hint="What the key is for, e.g. “Production backend”.">
          {(control) => (
            <input
              {...control}
              type="text"
              value={label}
              maxLength={API_KEY_LABEL_MAX}
              autocomplete="off"
              onInput={(event) => setLabel(event.currentTarget.value)}
            />
          )}
        </Field>
        <FailureAlert />
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </Form>
      <ActionStatus action={change} />
      <LoadStatus loaded={keys} />
      {keys.data && (
        <DataTable
          id="st-keys-table"
          label="API keys table"
          caption="Your API keys"
          rows={keys.data}
          empty={
            <p class="hint">
              No key yet. Create one above, store it in your backend’s secrets, then report your first event with it.
            </p>
          }
          columns={[
            { head: 'Label', rowHeader: true, cell: (key) => key.label ?? <span class="hint">(no label)</span> },
            { head: 'Key', cell: (key) => <code>{key.masked_key}</code> },
            {
              head: 'State',
              cell: (key) =>
                key.enabled ? (
                  'Enabled'
                ) : (
                  <>
                    Disabled <When at={key.disabled_at} />
                    {key.disabled_reason && <span class="hint">: {HOLDER_REASON[key.disabled_reason]}</span>}
                  </>
                ),
            },
            {
              head: 'Created by',
              class: 'wrap-anywhere',
              cell: (key) => (
                <>
                  {creatorOf(key)}
                  {key.personal_for !== null && <span class="hint"> (personal key)</span>}
                </>
              ),
            },
            { head: 'Created', cell: (key) => <When at={key.created_at} /> },
            { head: 'Last used', cell: (key) => <When at={key.last_used_at} /> },
            {
              head: 'Actions',
              class: 'row-actions',
              cell: (key) => (
                <>
                  {!key.disabled_reason && (
                    <button
                      type="button"
                      class="small"
                      disabled={busy}
                      onClick={() => change.run(key, key.enabled ? 'disable' : 'enable')}
                      aria-label={`${key.enabled ? 'Disable' : 'Enable'} ${key.label ?? key.masked_key}`}
                    >
                      {key.enabled ? 'Disable' : 'Enable'}
                    </button>
                  )}
                  <ConfirmButton
                    label="Delete"
                    name={`Delete ${key.label ?? key.masked_key}`}
                    confirm={`Delete ${key.label ?? key.masked_key} for good?`}
                    busy={busy}
                    danger
                    onConfirm={() => change.run(key, 'delete')}
                  />
                </>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
