import { describe, expect, it } from 'vitest';
import { memoryClientAdapters } from '../../../../shared/adapters/memory/client-stores.js';
import { createClient } from '../../../../shared/domain/clients/create-client.js';
import { INVITATION_LIMITS, inviteUser, sendInvitation } from '../../../../shared/domain/users/invite-user.js';
import { addUser, listUsers, removeUser } from '../../../../shared/domain/users/manage-users.js';
import type { SystemMessage } from '../../../../shared/domain/system-mail/system-mail.js';
import type { Queue, QueueMessages, QueueName, SystemMailMessage } from '../../../../shared/platform.js';
import { AppError } from '../../../../shared/errors.js';

class HeldQueue implements Queue {
  readonly held: SystemMailMessage[] = [];
  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q]): Promise<void> {
    if (queue === 'system-mail') this.held.push(message as SystemMailMessage);
  }
  async sendBatch(): Promise<void> {
    throw new Error('not used');
  }
}

async function setup(plan: 'free' | 'starter' | 'growth' = 'starter') {
  const deps = memoryClientAdapters();
  const mails: SystemMessage[] = [];
  const queue = new HeldQueue();
  const all = {
    ...deps,
    queue,
    systemMail: {
      send: async (m: SystemMessage) => (mails.push(m), { kind: 'sent' as const, providerMessageId: 'm' }),
    },
  };
  const client = await createClient(all, { email: 'Owner@Acme.test', name: 'Acme', plan });
  const deliver = async () => {
    const outcomes = [];
    for (const m of queue.held.splice(0))
      if (m.kind === 'invitation') outcomes.push(await sendInvitation(all, m, 'https://api.test/cb'));
    return outcomes;
  };
  return { deps: all, client, mails, queue, deliver };
}

const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('invitations', () => {
  it('creates the user within max_users (starter: 3), answers before any e-mail, then mails the invitee a 72-hour link', async () => {
    // Prepare
    const { deps, client, mails, queue, deliver } = await setup('starter');
    // Act
    const invited = await inviteUser(deps, client.id, client.owner_user_id, {
      email: ' Mia@Acme.test ',
      name: 'Mia',
      role: 3,
    });
    // Assess
    expect(invited).toEqual({
      email: 'mia@acme.test',
      name: 'Mia',
      role: 3,
      role_name: 'member',
      invited_by: client.owner_user_id,
      valid_until: '2026-01-18T10:00:00.000Z',
    });
    expect(mails).toEqual([]);
    expect(queue.held).toEqual([
      {
        kind: 'invitation',
        client_id: client.id,
        inviter_id: client.owner_user_id,
        email: 'mia@acme.test',
        name: 'Mia',
        role: 3,
      },
    ]);
    expect((await listUsers(deps, client.id)).map((u) => u.email)).toEqual(['owner@acme.test', 'mia@acme.test']);
    expect(await deliver()).toEqual(['sent']);
    expect(mails[0]).toMatchObject({ to: 'mia@acme.test', subject: 'You are invited to Acme on Email Lifecycle' });
    expect(mails[0]!.text).toMatch(/https:\/\/api\.test\/cb\?token=[A-Za-z0-9_-]{43}/);
    expect([...deps.sessions.data.links.values()][0]).toMatchObject({
      purpose: 'invitation',
      email: 'mia@acme.test',
      valid_until: '2026-01-18T10:00:00.000Z',
    });

    await addUser(deps, { id: client.id, plan: 'starter' }, { email: 'vic@acme.test', name: 'Vic', role: 4 });
    const over = await failure(
      inviteUser(deps, client.id, client.owner_user_id, { email: 'x@acme.test', name: 'X', role: 4 }),
    );
    expect([over.status, over.items]).toEqual([
      409,
      [{ condition: 'max', key: 'users', error: 'The plan allows at most 3 users; remove one or upgrade the plan' }],
    ]);
    const taken = await failure(
      inviteUser(deps, client.id, client.owner_user_id, { email: 'mia@acme.test', name: 'M', role: 4 }),
    );
    expect(taken.items[0]).toMatchObject({ condition: 'unique', key: 'email' });
  });

  it('answers an address of another client exactly like a new one, creates no user, and mails it that it was invited, with no link', async () => {
    // Prepare
    const { deps, client, mails, deliver } = await setup('growth');
    const other = await createClient(deps, { email: 'boss@other.test', name: 'Other', plan: 'growth' });
    // Act
    const fresh = await inviteUser(deps, client.id, client.owner_user_id, {
      email: 'new@acme.test',
      name: 'N',
      role: 3,
    });
    const held = await inviteUser(deps, client.id, client.owner_user_id, {
      email: 'boss@other.test',
      name: 'N',
      role: 3,
    });
    // Assess
    expect({ ...held, email: 'x' }).toEqual({ ...fresh, email: 'x' });
    expect((await listUsers(deps, client.id)).map((u) => u.email)).toEqual(['owner@acme.test', 'new@acme.test']);
    expect((await listUsers(deps, other.id)).map((u) => u.email)).toEqual(['boss@other.test']);
    expect(await deliver()).toEqual(['sent', 'sent_to_account_holder']);
    const toHolder = mails.find((m) => m.to === 'boss@other.test')!;
    expect(toHolder.subject).toBe('You are invited to Acme on Email Lifecycle');
    expect(toHolder.text).not.toMatch(/https?:\/\//);
    expect([...deps.sessions.data.links.values()].map((l) => l.email)).toEqual(['new@acme.test']);
  });

  it('limits invitations per address (3 a day) and per client (20 a day), so invite → remove → invite ends', async () => {
    // Prepare
    const { deps, client, queue } = await setup('growth');
    // Act: the loop on one address
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const outcome = await inviteUser(deps, client.id, client.owner_user_id, {
        email: 'loop@acme.test',
        name: 'L',
        role: 4,
      }).then(
        () => 202,
        (e: AppError) => e.status,
      );
      statuses.push(outcome);
      const user = await deps.users.findByEmail('loop@acme.test');
      if (user) await removeUser(deps, client.id, user.id);
    }
    // Assess
    expect(statuses).toEqual([202, 202, 202, 429]);
    // Refused attempts count too: 4 so far, 16 more reach the client's 20.
    for (let i = 4; i < INVITATION_LIMITS.perClientPerDay; i += 1) {
      await inviteUser(deps, client.id, client.owner_user_id, { email: `u${i}@acme.test`, name: 'U', role: 4 });
      await removeUser(deps, client.id, (await deps.users.findByEmail(`u${i}@acme.test`))!.id);
    }
    const over = await failure(
      inviteUser(deps, client.id, client.owner_user_id, { email: 'last@acme.test', name: 'U', role: 4 }),
    );
    expect(over.items).toEqual([
      {
        condition: 'rate_limited',
        key: 'request',
        error: 'At most 20 invitations a day per client; try again tomorrow (UTC)',
      },
    ]);
    expect(queue.held).toHaveLength(3 + 16);
    // The next UTC day starts afresh.
    deps.clock.advance(24 * 60 * 60 * 1000);
    await expect(
      inviteUser(deps, client.id, client.owner_user_id, { email: 'last@acme.test', name: 'U', role: 4 }),
    ).resolves.toMatchObject({ email: 'last@acme.test' });
  });
});
