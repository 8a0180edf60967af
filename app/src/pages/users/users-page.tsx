import { useState } from 'preact/hooks';
import { USER_NAME_MAX } from '../../../../shared/public/account-rules.js';
import { INVITATION_LINK_MS } from '../../../../shared/public/session-rules.js';
import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { answerOf, fieldErrorOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useDraft } from '../../data/use-draft.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { can, loadSession } from '../../session.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError, controlPropsOf } from '../../ui/field.js';
import { Form } from '../../ui/form.js';
import { Options, SelectField, TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { Done, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';

type User = components['schemas']['User'];
type ApiKey = components['schemas']['ApiKeyListed'];

/** The enabled API keys a user created or holds: what removing it, or a role without keys, disables. */
export const keysEndingWith = (keys: readonly ApiKey[], userId: number): number =>
  keys.filter((key) => key.enabled && (key.created_by === userId || key.personal_for === userId)).length;

const keyCount = (n: number): string => `${n} API key${n === 1 ? '' : 's'}`;

/** The roles, as the API numbers them, and what each may do (shared/domain/users/roles.ts). */
export const ROLE_CHOICES = [
  { role: 2, name: 'admin', does: 'everything but users: settings, webhooks, API keys' },
  { role: 3, name: 'member', does: 'reads everything; changes templates, workflows, contacts and topics' },
  { role: 4, name: 'viewer', does: 'reads everything' },
] as const;
type InviteRole = (typeof ROLE_CHOICES)[number]['role'];

/**
 * Users (the accounts issue): the client's users and roles, for every role. The owner invites (an e-mail
 * with a one-time sign-in link), changes a role (role owner transfers ownership) and removes; others only read. Before
 * a removal or a change to member or viewer, the owner sees how many API keys of that user it will disable (the keys
 * list names each key's creator and personal holder).
 */
export function UsersPage({ api, signedIn }: PageProps) {
  const owner = can(signedIn, 'users');
  const readsKeys = owner && can(signedIn, 'keys');
  const users = useLoad(
    async (signal) => (await answerOf(api.GET('/api/v1/client/users', { signal }), 'Reading the users')).data.users,
    [api],
  );
  // Only the owner removes or changes roles, and may read the keys; without them the counts are not shown.
  const keys = useLoad(
    async (signal) =>
      readsKeys
        ? (await answerOf(api.GET('/api/v1/client/api-keys', { signal }), 'Reading the API keys')).data.api_keys
        : null,
    [api, readsKeys],
  );
  const [done, setDone] = useState('');
  const shownKeys = keys.failure ? undefined : (keys.data ?? undefined);

  const changed = (message: string) => {
    setDone(message);
    users.reload();
    keys.reload();
  };

  return (
    <section aria-labelledby="st-users-title">
      <PageHead id="st-users-title" title="Users" />
      <p class="hint">
        Who signs in to this dashboard, and what each role may do: the owner everything; an admin everything but users;
        a member changes content (templates, workflows, contacts, topics); a viewer reads.
      </p>
      <LoadStatus loaded={users} />
      <Done text={done} />
      {users.data && (
        <ul class="record-list" id="st-users-list">
          {users.data.map((user) => (
            <UserItem
              key={user.id}
              api={api}
              user={user}
              self={user.id === signedIn.user.id}
              owner={owner}
              keys={shownKeys && keysEndingWith(shownKeys, user.id)}
              onChanged={changed}
            />
          ))}
        </ul>
      )}
      {users.data && users.data.length === 1 && owner && (
        <p class="hint">
          Only you so far. Invite the people who work on your e-mail: each gets a sign-in link by e-mail.
        </p>
      )}
      {users.data && owner && <Invite api={api} onInvited={changed} />}
      {users.data && !owner && <p class="hint">Only the owner invites, changes roles and removes users.</p>}
    </section>
  );
}

function UserItem(props: {
  api: Api;
  user: User;
  self: boolean;
  owner: boolean;
  keys: number | undefined;
  onChanged: (message: string) => void;
}) {
  const { api, user, self, owner, keys, onChanged } = props;
  const [role, setRole] = useState(String(user.role));
  const path = { params: { path: { id: String(user.id) } } };
  const manageable = owner && user.role !== 1;
  const change = useAction(
    async (
      what: string,
      call: () => Promise<{ data?: unknown; error?: unknown; response: Response }>,
      message: string,
    ) => {
      await answerOf(call(), what);
      onChanged(message);
    },
  );

  const roleId = `st-role-${user.id}`;
  const roleError = fieldErrorOf(change.failure, 'role');
  const newRole = Number(role) as 1 | 2 | 3 | 4;
  const ending = keys ?? 0;
  const endsKeys = ending > 0 && newRole > 2;
  const changeRole = () =>
    change.run(
      'Changing the role',
      () => api.PATCH('/api/v1/client/users/{id}', { ...path, body: { role: newRole } }),
      `${user.name}’s role changed; their sessions ended${endsKeys ? ` and ${keyCount(ending)} disabled` : ''}.`,
    );
  const newRoleName = ROLE_CHOICES.find((choice) => choice.role === newRole)?.name ?? 'member';
  return (
    <li class="card record">
      <div class="record-head">
        <h2 class="record-title">
          {user.name}
          {self && <span class="hint"> (you)</span>}
        </h2>
        <span class="role">{user.role_name}</span>
      </div>
      <p class="wrap-anywhere">{user.email}</p>
      <p class="hint">
        Last signed in: <When at={user.last_sign_in_at} />. Added <When at={user.created_at} />.
      </p>
      {manageable && ending > 0 && (
        <p class="hint" id={`st-user-keys-${user.id}`}>
          {keyCount(ending)} created or held by {user.name}: removing them, or making them a member or viewer, disables{' '}
          {ending === 1 ? 'it' : 'them'} for good.
        </p>
      )}
      {manageable && (
        <div class="row-actions">
          <label for={roleId}>Role of {user.name}</label>
          <select
            {...controlPropsOf(roleId, roleError, false)}
            value={role}
            onChange={(event) => setRole(event.currentTarget.value)}
          >
            <Options of={ROLE_CHOICES} value={(choice) => choice.role} text={(choice) => choice.name} />
            <option value="1">owner (you become an admin)</option>
          </select>
          {newRole === 1 ? (
            <ConfirmButton
              label="Transfer ownership"
              confirm={`Make ${user.name} the owner? You become an admin at once.`}
              busy={change.busy}
              danger
              onConfirm={async () => {
                await change.run(
                  'Transferring ownership',
                  () => api.PATCH('/api/v1/client/users/{id}', { ...path, body: { role: 1 } }),
                  `${user.name} is the owner now.`,
                );
                // Your own role changed (owner to admin): ask who is signed in again (a session the change ended signs out).
                await loadSession(api).catch(() => undefined);
              }}
            />
          ) : endsKeys && newRole !== user.role ? (
            <ConfirmButton
              label="Change role"
              confirm={`Make ${user.name} a ${newRoleName}? ${keyCount(ending)} will be disabled, and their sessions end.`}
              busy={change.busy}
              danger
              onConfirm={changeRole}
            />
          ) : (
            <button type="button" class="small" disabled={change.busy || newRole === user.role} onClick={changeRole}>
              Change role
            </button>
          )}
          <ConfirmButton
            label="Remove"
            name={`Remove ${user.name}`}
            confirm={`Remove ${user.name}? Their sessions end at once${ending > 0 ? `, and ${keyCount(ending)} will be disabled` : ''}.`}
            busy={change.busy}
            danger
            onConfirm={() =>
              change.run(
                'Removing the user',
                () => api.DELETE('/api/v1/client/users/{id}', path),
                `${user.name} removed${ending > 0 ? `; ${keyCount(ending)} disabled` : ''}.`,
              )
            }
          />
          <FieldError id={roleId} message={roleError} />
        </div>
      )}
      <FailureAlert failure={change.failure} shownAt={['role']} />
    </li>
  );
}

function Invite({ api, onInvited }: { api: Api; onInvited: (message: string) => void }) {
  const empty = { email: '', name: '', role: 3 as InviteRole };
  const { draft, setDraft, bind } = useDraft(empty);
  const invite = useAction(async () => {
    const answer = await answerOf(
      api.POST('/api/v1/client/users', { body: { ...draft, email: draft.email.trim(), name: draft.name.trim() } }),
      'Inviting',
    );
    setDraft(empty);
    // The same answer whether or not the address has an account with another client (then it joins no list).
    onInvited(
      `The invitation to ${answer.data.email} as ${answer.data.role_name} is on its way; its link works for ${INVITATION_LINK_MS / 3_600_000} hours.`,
    );
  });

  return (
    <section class="card page-section" aria-labelledby="st-invite-title">
      <h2 id="st-invite-title">Invite a user</h2>
      <Form class="narrow-form" noValidate onSubmit={invite.run} failure={invite.failure}>
        <TextField id="st-invite-email" label="E-mail address" {...bind('email')} type="email" />
        <TextField id="st-invite-name" label="Name" {...bind('name')} maxLength={USER_NAME_MAX} />
        <SelectField
          id="st-invite-role"
          label="Role"
          name="role"
          value={String(draft.role)}
          onValue={(role) => setDraft({ ...draft, role: Number(role) as InviteRole })}
        >
          <Options
            of={ROLE_CHOICES}
            value={(choice) => choice.role}
            text={(choice) => `${choice.name}: ${choice.does}`}
          />
        </SelectField>
        <FailureAlert />
        <button type="submit" disabled={invite.busy}>
          Send invitation
        </button>
      </Form>
    </section>
  );
}
