import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createContainer } from '../../shared/composition/container.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { loadConfig } from '../../shared/config.js';
import { serviceSendersOf } from '../../shared/domain/domains/service-senders.js';
import { quotaMonthOf } from '../../shared/domain/settings/quota-period.js';
import { call, request } from './support/api.js';
import { createTestClient, type TestClient } from './support/clients.js';
import { eventually } from './support/eventually.js';
import { type ExecutionItem, listExecutions } from './support/executions.js';
import { awaitSesMailsTo, sesMails, sesMailsTo } from './support/ses-mailbox.js';

/**
 * The service's own senders as the runtime has them: the tests run with the environment the local runtime set
 * (local/runtime.ts), which loadConfig reads as the runtime's handlers do.
 */
const { onboardingFrom: ONBOARDING_FROM } = serviceSendersOf(loadConfig(process.env));
const SYSTEM_FROM = loadConfig(process.env).SYSTEM_FROM_EMAIL;

/** The settings store on the runtime's DynamoDB Local, to write a row as it stood before the From rule. */
const store = () =>
  createContainer({
    config: loadConfig({
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
    }),
  }).resolve([settingsStore]).settings;

/** A settings row with `email_from_address` written straight into the store, as one written before the rule. */
async function writeLegacyFrom(clientId: number, address: string): Promise<void> {
  const settings = store();
  const { settings: row } = await settings.load(clientId, quotaMonthOf(new Date()));
  const next = { ...row!, email_from_address: address, version: row!.version + 1 };
  if (!(await settings.save(next, row!.version))) throw new Error('the legacy row lost a race');
}

const settingsOf = async (client: TestClient) =>
  (await call('GET', '/client/settings', { key: client.api_key })).body.data;

/**
 * POST /client/events (sync) for a signup of `email`: the welcome execution once the executor decided it (sent,
 * skipped, or queued again with a reason).
 */
async function signUp(client: TestClient, email: string, status: number): Promise<ExecutionItem> {
  const res = await call('POST', '/client/events?sync=true', {
    key: client.api_key,
    body: { type: 'signup', email, auto_create_contact: true },
  });
  expect(res.status).toBe(201);
  const contactId = res.body.data.contact_id as number;
  return eventually(`the welcome e-mail to ${email} in status ${status}`, async () => {
    const welcome = (await listExecutions(client.api_key, 'workflow_id=1')).find((e) => e.contact_id === contactId);
    return welcome?.status === status && (status !== 1 || welcome.reason !== null) ? welcome : undefined;
  });
}

/** The display name of a test client: createTestClient names it after the tag of its owner's address. */
const testClientName = (ownerEmail: string) => `Test client ${/^client-([0-9a-f]{8})@/.exec(ownerEmail)![1]}`;

const fresh = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const addressOf = (from: string) => /<([^>]+)>$/.exec(from)?.[1] ?? from;

describe("nobody sends as anybody else: the From is bound to the client's verified domains", () => {
  it("refuses A's From at B's address, at B's domain and at the service's own sender (422 unsafe), saying what to do", async () => {
    // Prepare
    const [a, b] = await Promise.all([createTestClient(), createTestClient()]);
    const bOwner = (await settingsOf(b)).client.email as string;

    // Act
    const attempts = await Promise.all(
      [bOwner, `ceo@${b.domain}`, SYSTEM_FROM, ONBOARDING_FROM].map((from) =>
        call('PATCH', '/client/settings', { key: a.api_key, body: { email_from_address: from } }),
      ),
    );

    // Assess
    expect(attempts.map((r) => r.status)).toEqual([422, 422, 422, 422]);
    const [owner, domain, system, onboarding] = attempts.map((r) => r.body.errors);
    expect(owner).toEqual([
      {
        condition: 'unsafe',
        key: 'email_from_address',
        error: expect.stringMatching(/not at one of your verified domains .*POST \/client\/domains/),
      },
    ]);
    expect(domain![0]).toMatchObject({ condition: 'unsafe', key: 'email_from_address' });
    expect(domain![0].error).toContain(`(${a.domain})`);
    for (const errors of [system, onboarding]) {
      expect(errors).toEqual([
        { condition: 'unsafe', key: 'email_from_address', error: expect.stringMatching(/the service's own sender/) },
      ]);
    }
    expect((await settingsOf(a)).email_from_address).toBeNull();
  });

  it("never sends From a legacy From at B's address or the system sender: A's mail goes From its own domain, and GET reports it", async () => {
    // Prepare: A's row holds B's owner's address, as it could before the rule
    const [a, b] = await Promise.all([createTestClient(), createTestClient()]);
    const bOwner = (await settingsOf(b)).client.email as string;
    await writeLegacyFrom(a.id, bOwner);
    const contact = fresh('legacy');

    // Act
    await signUp(a, contact, 3);
    const view = await settingsOf(a);
    await writeLegacyFrom(a.id, SYSTEM_FROM);
    const second = fresh('legacy-system');
    await signUp(a, second, 3);

    // Assess
    const mails = [...(await awaitSesMailsTo(contact)), ...(await awaitSesMailsTo(second))];
    expect(mails.map((m) => addressOf(m.from))).toEqual([`no-reply@${a.domain}`, `no-reply@${a.domain}`]);
    expect(view.sending).toMatchObject({
      from_address: `no-reply@${a.domain}`,
      from_status: 'not_verified',
      sandbox: false,
      verified_domains: [a.domain],
      problems: [{ key: 'email_from_address', error: expect.stringContaining(bOwner) }],
    });
    // Nothing in the SES store ever went From B's owner's address (B itself sent nothing)
    expect((await sesMails()).filter((m) => addressOf(m.from) === bOwner)).toEqual([]);
  });

  it("keeps a sandboxed client with a legacy From at B's address to its own users, From the onboarding sender", async () => {
    // Prepare
    const [a, b] = await Promise.all([createTestClient(undefined, { sandbox: true }), createTestClient()]);
    const bOwner = (await settingsOf(b)).client.email as string;
    const aView = await settingsOf(a);
    await writeLegacyFrom(a.id, bOwner);

    // Act
    const toB = await signUp(a, bOwner, 6);
    await signUp(a, aView.client.email, 3);

    // Assess
    expect(toB.reason).toBe('sandbox_recipient');
    expect(await sesMailsTo(bOwner)).toEqual([]);
    const [mail] = await awaitSesMailsTo(aView.client.email);
    expect(mail!.from).toBe(`"${testClientName(aView.client.email)}" <${ONBOARDING_FROM}>`);
  });
});

describe('the sandbox: a client without a verified domain', () => {
  it('skips a contact (sandbox_recipient), and sends to its owner and SES simulator From the onboarding sender under its name', async () => {
    // Prepare
    const client = await createTestClient(undefined, { sandbox: true });
    const view = await settingsOf(client);
    const owner = view.client.email as string;
    const name = testClientName(owner);

    // Act
    const skipped = await signUp(client, fresh('customer'), 6);
    await signUp(client, owner, 3);
    await signUp(client, 'success@simulator.amazonses.com', 3);

    // Assess
    expect(view.sending).toEqual({
      from_address: ONBOARDING_FROM,
      from_name: name,
      from_status: 'unset',
      sandbox: true,
      verified_domains: [],
      problems: [],
      tenant: { name: null, status: 'none', paused_reason: null, paused_at: null },
    });
    expect(skipped).toMatchObject({ status: 6, reason: 'sandbox_recipient', sent_email_id: null });
    const [toOwner] = await awaitSesMailsTo(owner);
    expect(toOwner!.from).toBe(`"${name}" <${ONBOARDING_FROM}>`);
    const simulated = (await sesMailsTo('success@simulator.amazonses.com')).filter((m) => m.from.includes(name));
    expect(simulated.map((m) => m.from)).toEqual([`"${name}" <${ONBOARDING_FROM}>`]);
  });
});

describe('a verified client', () => {
  it('sets its From at its verified domain (200) and its e-mails go From it, through its SES tenant', async () => {
    // Prepare
    const client = await createTestClient();
    const contact = fresh('verified');

    // Act
    const patched = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { email_from_address: `hello@${client.domain}`, email_from_name: 'Hello Team' },
    });
    await signUp(client, contact, 3);

    // Assess
    expect(patched.status).toBe(200);
    expect(patched.body.data.sending).toMatchObject({
      from_address: `hello@${client.domain}`,
      from_name: 'Hello Team',
      from_status: 'verified',
      sandbox: false,
      verified_domains: [client.domain],
      problems: [],
      tenant: { name: expect.stringMatching(new RegExp(`client-${client.id}$`)), status: 'enabled' },
    });
    const [mail] = await awaitSesMailsTo(contact);
    expect(mail!.from).toBe(`"Hello Team" <hello@${client.domain}>`);
  });

  it('defers its e-mails while SES has paused its tenant, and shows the pause in its settings', async () => {
    // Prepare
    const client = await createTestClient();
    const tenant = (await settingsOf(client)).sending.tenant.name as string;
    const paused = await request('POST', `/dev/ses-tenants/${tenant}/status`, {
      body: { status: 'DISABLED', cause: 'complaint rate over the policy' },
    });
    expect(paused.status).toBe(200);
    const contact = fresh('paused');

    // Act
    const deferred = await signUp(client, contact, 1);
    const view = await settingsOf(client);

    // Assess
    expect(deferred).toMatchObject({
      status: 1,
      reason: 'tenant_paused: SendingPausedException',
      sent_email_id: null,
    });
    expect(Date.parse(deferred.scheduled_for)).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(view.sending.tenant).toEqual({
      name: tenant,
      status: 'paused',
      paused_reason: expect.stringContaining('complaint rate over the policy'),
      paused_at: expect.any(String),
    });
    expect(await sesMailsTo(contact)).toEqual([]);
  });
});
