import { describe, expect, it } from 'vitest';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { createClient } from '../../../../shared/domain/clients/create-client.js';
import type { SenderState } from '../../../../shared/domain/domains/sender-state.js';
import { getSettings } from '../../../../shared/domain/settings/get-settings.js';
import { SettingsPatch } from '../../../../shared/domain/settings/schemas.js';
import { updateSettings } from '../../../../shared/domain/settings/update-settings.js';
import { AppError } from '../../../../shared/errors.js';

const SYSTEM = 'accounts@email-lifecycle.example';
const ONBOARDING = 'onboarding@sandbox.email-lifecycle.example';

/** Memory stores with one client (Acme) and its sending state; the service's senders as the local runtime names them. */
async function setUp(sender?: SenderState) {
  const stores = memoryStores();
  const deps = { ...stores, config: { SYSTEM_FROM_EMAIL: SYSTEM, ONBOARDING_FROM_ADDRESS: ONBOARDING } };
  const { id } = await createClient(deps, { email: 'owner@acme.example', name: 'Acme' });
  if (sender) stores.settings.senders.set(id, sender);
  const patch = (body: Record<string, unknown>) => updateSettings(deps, id, SettingsPatch.parse(body));
  const refusal = async (body: Record<string, unknown>) => {
    const error = await patch(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    return { status: (error as AppError).status, items: (error as AppError).items };
  };
  return { stores, deps, id, patch, refusal };
}

describe('updateSettings: the From a client may set', () => {
  it('takes an address at one of its verified domains', async () => {
    // Prepare
    const { patch } = await setUp({ verified_domains: ['acme.example'] });

    // Act
    const { settings } = await patch({ email_from_address: 'Hello@Acme.example' });

    // Assess
    expect(settings.email_from_address).toBe('hello@acme.example');
    expect(settings.sending).toMatchObject({
      from_address: 'hello@acme.example',
      from_status: 'verified',
      problems: [],
    });
  });

  it.each([
    {
      name: "another client's address",
      from: 'ceo@other-client.example',
      error:
        /ceo@other-client\.example is not at one of your verified domains \(acme\.example\); add other-client\.example under Domains \(POST \/client\/domains\)/,
    },
    {
      name: 'a subdomain of its verified domain',
      from: 'news@mail.acme.example',
      error: /not at one of your verified domains/,
    },
    { name: "the service's sign-in sender", from: SYSTEM, error: /the service's own sender/ },
    { name: "the service's onboarding sender", from: ONBOARDING, error: /the service's own sender/ },
  ])('refuses $name: 422 unsafe on email_from_address, nothing written', async ({ from, error }) => {
    // Prepare
    const { refusal, stores, id } = await setUp({ verified_domains: ['acme.example'] });
    const before = structuredClone(stores.settings.settings.get(id));

    // Act
    const refused = await refusal({ email_from_address: from, brand_name: 'Acme' });

    // Assess
    expect(refused).toEqual({
      status: 422,
      items: [{ condition: 'unsafe', key: 'email_from_address', error: expect.stringMatching(error) }],
    });
    expect(stores.settings.settings.get(id)).toEqual(before);
  });

  it('refuses any From while the client has no verified domain, saying to add one', async () => {
    // Prepare
    const { refusal } = await setUp();

    // Act
    const refused = await refusal({ email_from_address: 'hello@acme.example' });

    // Assess
    expect(refused.items).toEqual([
      {
        condition: 'unsafe',
        key: 'email_from_address',
        error: expect.stringMatching(/\(none yet\); add acme\.example under Domains \(POST \/client\/domains\)/),
      },
    ]);
  });

  it('lets a client with a stored From that breaks the rule edit other fields, and unset it; GET reports it', async () => {
    // Prepare: a row written before the rule
    const { patch, stores, id, deps } = await setUp({ verified_domains: ['acme.example'] });
    stores.settings.settings.get(id)!.email_from_address = SYSTEM;

    // Act
    const other = await patch({ brand_name: 'Acme', email_reply_to: 'anyone@elsewhere.example' });
    const read = await getSettings(deps, id);

    // Assess
    expect(other.settings).toMatchObject({ brand_name: 'Acme', email_reply_to: 'anyone@elsewhere.example' });
    expect(read.sending).toEqual({
      from_address: 'no-reply@acme.example',
      from_name: 'Acme',
      from_status: 'not_verified',
      sandbox: false,
      verified_domains: ['acme.example'],
      problems: [{ key: 'email_from_address', error: expect.stringMatching(/the service's own sender/) }],
      tenant: { name: null, status: 'none', paused_reason: null, paused_at: null },
    });

    // Act: unsetting it is always allowed
    const cleared = await patch({ email_from_address: null });

    // Assess
    expect(cleared.settings.sending).toMatchObject({ from_status: 'unset', problems: [] });
  });
});

describe('the settings view: sending', () => {
  it('shows a client without a verified domain in the sandbox, From the onboarding sender under its name', async () => {
    // Prepare
    const { deps, id } = await setUp();

    // Act
    const view = await getSettings(deps, id);

    // Assess
    expect(view.sending).toEqual({
      from_address: ONBOARDING,
      from_name: 'Acme',
      from_status: 'unset',
      sandbox: true,
      verified_domains: [],
      problems: [],
      tenant: { name: null, status: 'none', paused_reason: null, paused_at: null },
    });
  });

  it('shows a paused tenant with its reason and since when', async () => {
    // Prepare
    const { deps, id } = await setUp({
      verified_domains: ['acme.example'],
      tenant: 'els-client-1',
      tenant_paused_at: '2026-01-15T10:00:00.000Z',
      tenant_paused_reason: 'Sending paused: complaint rate',
    });

    // Act
    const view = await getSettings(deps, id);

    // Assess
    expect(view.sending.tenant).toEqual({
      name: 'els-client-1',
      status: 'paused',
      paused_reason: 'Sending paused: complaint rate',
      paused_at: '2026-01-15T10:00:00.000Z',
    });
  });
});
