import { describe, expect, it } from 'vitest';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import type { BroadcastRecord } from '../../../../shared/domain/broadcasts/broadcast-store.js';
import { sendBroadcastTest } from '../../../../shared/domain/broadcasts/test-send.js';
import { createClient } from '../../../../shared/domain/clients/create-client.js';
import { addUser } from '../../../../shared/domain/users/manage-users.js';
import { AppError } from '../../../../shared/errors.js';
import type { MailSendResult, Mailer, OutboundEmail } from '../../../../shared/platform.js';

/** A mailer that records what it is given. */
class RecordingMailer implements Mailer {
  readonly sent: OutboundEmail[] = [];
  async send(email: OutboundEmail): Promise<MailSendResult> {
    this.sent.push(email);
    return { kind: 'sent', providerMessageId: `m-${this.sent.length}` };
  }
}

const CONFIG = {
  PUBLIC_BASE_URL: 'https://api.test',
  SYSTEM_FROM_EMAIL: 'system@service.test',
  ONBOARDING_FROM_ADDRESS: 'onboarding@service.test',
  SES_CONFIGURATION_SET: 'clients-set',
};

async function setup(variants: BroadcastRecord['definition']['variants']) {
  const stores = memoryStores();
  const mailer = new RecordingMailer();
  const client = await createClient(stores, { email: 'owner@acme.test', name: 'Acme', plan: 'growth' });
  await addUser(stores, { id: client.id, plan: 'growth' }, { email: 'mia@acme.test', name: 'Mia Wong', role: 3 });
  const broadcast: BroadcastRecord = {
    id: 4,
    client_id: client.id,
    name: 'Launch',
    status: 'draft',
    draft_version: 1,
    definition: {
      audience: { all_subscribed: true },
      category: 'marketing',
      topic_id: null,
      variants,
      schedule: { mode: 'now' },
      priority_score: 30,
    },
    created_at: '2026-11-28T00:00:00.000Z',
    updated_at: '2026-11-28T00:00:00.000Z',
  };
  const deps = {
    ...stores,
    broadcasts: {
      get: async (clientId: number, id: number) => (clientId === client.id && id === broadcast.id ? { broadcast } : {}),
    },
    mailer,
    clock: { now: () => new Date('2026-11-28T10:00:00.000Z') },
    config: CONFIG,
  };
  return { stores, deps, client, mailer };
}

const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('broadcast test send', () => {
  it('sends each variant to each user named, from the verified sender through its tenant, "[Test] " first', async () => {
    // Prepare
    const { stores, deps, client, mailer } = await setup([
      { template_id: 1, subject: 'Hi <%= it.contact.first_name %>' },
      { template_id: 1, subject: 'Hello <%= it.contact.last_name %>' },
    ]);
    stores.settings.senders.set(client.id, {
      verified_domains: ['acme.test'],
      tenant: 'tenant-acme',
      configuration_set: 'tenant-set',
    });

    // Act
    const answer = await sendBroadcastTest(deps, client.id, 4, { emails: ['mia@acme.test', 'owner@acme.test'] });

    // Assess
    expect(answer.sent).toEqual([
      { email: 'mia@acme.test', variant: 0, subject: '[Test] Hi Mia' },
      { email: 'mia@acme.test', variant: 1, subject: '[Test] Hello Wong' },
      { email: 'owner@acme.test', variant: 0, subject: expect.stringMatching(/^\[Test\] Hi /) },
      { email: 'owner@acme.test', variant: 1, subject: expect.stringMatching(/^\[Test\] Hello/) },
    ]);
    expect(mailer.sent.map((m) => [m.to, m.subject])).toEqual(answer.sent.map((s) => [s.email, s.subject]));
    expect(mailer.sent[0]).toMatchObject({
      from: '"Acme" <no-reply@acme.test>',
      tenant: 'tenant-acme',
      configurationSet: 'tenant-set',
      tags: { client_id: String(client.id), broadcast_test: '4' },
    });
    // No one-click unsubscribe header: a test has no contact to unsubscribe; the footer is there as it would be.
    expect(mailer.sent[0]!.headers).toBeUndefined();
    expect(mailer.sent[0]!.text).toContain('Unsubscribe: https://api.test/u/test');
  });

  it('goes from the onboarding sender in the sandbox, and refuses an outsider, another client and a paused sender', async () => {
    // Prepare
    const { stores, deps, client, mailer } = await setup([{ template_id: 1 }]);

    // Act
    const sandboxed = await sendBroadcastTest(deps, client.id, 4, { emails: ['owner@acme.test'] });
    const outsider = await failure(
      sendBroadcastTest(deps, client.id, 4, { emails: ['owner@acme.test', 'someone@else.test'] }),
    );
    const foreign = await failure(sendBroadcastTest(deps, client.id + 1, 4, { emails: ['owner@acme.test'] }));
    stores.settings.senders.set(client.id, {
      verified_domains: ['acme.test'],
      tenant: 'tenant-acme',
      tenant_paused_at: '2026-11-28T09:00:00.000Z',
    });
    const paused = await failure(sendBroadcastTest(deps, client.id, 4, { emails: ['owner@acme.test'] }));

    // Assess
    expect(sandboxed.sent).toHaveLength(1);
    expect(mailer.sent[0]!.from).toBe('"Acme" <onboarding@service.test>');
    expect(mailer.sent[0]!.configurationSet).toBe('clients-set');
    expect(outsider.status).toBe(422);
    expect(outsider.items).toEqual([
      {
        condition: 'reference',
        key: 'emails.1',
        error: 'Not one of your dashboard users: a test goes only to your own team',
      },
    ]);
    expect(foreign.status).toBe(404);
    expect(paused.status).toBe(409);
    expect(mailer.sent).toHaveLength(1);
  });
});
