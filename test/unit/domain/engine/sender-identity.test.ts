import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import { PAUSED_RECHECK_MS, sentEmailIdOf } from '../../../../shared/domain/executions/execute-workflow.js';
import { ROLES } from '../../../../shared/domain/users/roles.js';
import {
  CLIENT_ID,
  type EngineHarness,
  engineHarness,
  NOW,
  ONBOARDING_FROM,
  SYSTEM_FROM,
  sendingPaused,
} from './engine-harness.js';

const TENANT = 'els-client-7';
const OWNER = 'owner@acme-owner.example';
const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();

/** The client's owner, a dashboard user: in the sandbox the client may send to it. */
async function addOwner(h: EngineHarness, email = OWNER) {
  await h.stores.users.create(
    { id: 1, client_id: CLIENT_ID, email, name: 'Owner', role: ROLES.owner, created_at: NOW, updated_at: NOW },
    10,
  );
}

describe('executeWorkflow: who an e-mail is From, and to whom a sandboxed client may send', () => {
  it('skips a contact of a client in the sandbox (no verified domain): sandbox_recipient, nothing sent or counted', async () => {
    // Prepare
    const h = await engineHarness({}, {}, null);
    await addOwner(h);
    const execution = await h.queued(await h.contact({ email: 'customer@example.com' }));

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'sandbox_recipient' });
    expect(h.mailer.emails).toEqual([]);
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.skipped,
      reason: 'sandbox_recipient',
    });
    expect(await h.monthSent()).toBe(0);
  });

  it("sends a sandboxed client's mail to its owner From the onboarding sender under the account's name, whatever name it set", async () => {
    // Prepare
    const h = await engineHarness({ email_from_name: 'Your sign-in link' }, { name: 'Acme' }, null);
    await addOwner(h);
    const execution = await h.queued(await h.contact({ email: 'Owner@Acme-Owner.example' }));

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    expect(h.mailer.emails[0]!.from).toBe(`"Acme" <${ONBOARDING_FROM}>`);
    expect(h.mailer.emails[0]).not.toHaveProperty('tenant');
  });

  it("sends a sandboxed client's mail to SES's mailbox simulator, through its tenant once it has one", async () => {
    // Prepare
    const h = await engineHarness({}, { name: 'Acme' }, { verified_domains: [], tenant: TENANT });
    const execution = await h.queued(await h.contact({ email: 'success@simulator.amazonses.com' }));

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails[0]).toMatchObject({
      from: `"Acme" <${ONBOARDING_FROM}>`,
      to: 'success@simulator.amazonses.com',
      tenant: TENANT,
    });
  });

  it("sends a verified client's mail From its address at its domain, naming its tenant and the tenant's configuration set", async () => {
    // Prepare
    const h = await engineHarness(
      { email_from_address: 'hello@acme.example', email_from_name: 'Acme' },
      {},
      { verified_domains: ['acme.example'], tenant: TENANT, configuration_set: 'els-client-7-set' },
    );
    const ann = await h.contact();
    const execution = await h.queued(ann);

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails[0]).toMatchObject({
      from: '"Acme" <hello@acme.example>',
      to: ann.email,
      tenant: TENANT,
      configurationSet: 'els-client-7-set',
    });
    const stored = await h.stores.sentEmails.getWithLogs(CLIENT_ID, sentEmailIdOf(execution));
    expect(stored?.email.from_email).toBe('"Acme" <hello@acme.example>');
  });

  it.each([
    ['an address at another client’s domain', 'ceo@other-client.example'],
    ['the service’s own sender', SYSTEM_FROM],
    ['the onboarding sender', ONBOARDING_FROM],
  ])('never sends From a legacy From that is %s: the default at its verified domain instead', async (_name, legacy) => {
    // Prepare: a row written before the rule (the API refuses it now)
    const h = await engineHarness({ email_from_address: legacy, email_from_name: 'Acme' });
    const execution = await h.queued(await h.contact());

    // Act
    await h.execute(execution.id);

    // Assess
    expect(h.mailer.emails).toHaveLength(1);
    expect(h.mailer.emails[0]!.from).toBe('"Acme" <no-reply@acme.test>');
  });

  it("never sends From a legacy From at another client's domain in the sandbox either: the onboarding sender, to its users only", async () => {
    // Prepare
    const h = await engineHarness({ email_from_address: 'ceo@other-client.example' }, { name: 'Acme' }, null);
    await addOwner(h);
    const toOwner = await h.queued(await h.contact({ email: OWNER }));
    const toOther = await h.queued(await h.contact({ email: 'ceo@other-client.example' }));

    // Act
    const outcomes = [await h.execute(toOwner.id), await h.execute(toOther.id)];

    // Assess
    expect(outcomes.map((o) => ('reason' in o ? o.reason : o.kind))).toEqual(['finished', 'sandbox_recipient']);
    expect(h.mailer.emails.map((e) => e.from)).toEqual([`"Acme" <${ONBOARDING_FROM}>`]);
  });
});

describe('executeWorkflow: a paused SES tenant', () => {
  it('defers while the tenant is recorded paused, without asking SES within the recheck interval', async () => {
    // Prepare
    const h = await engineHarness(
      {},
      {},
      {
        verified_domains: ['acme.test'],
        tenant: TENANT,
        tenant_paused_at: NOW,
        tenant_paused_reason: 'Sending paused: bounce rate',
      },
    );
    const execution = await h.queued(await h.contact());

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(h.mailer.emails).toEqual([]);
    expect(h.tenants.asked).toEqual([]);
    expect(await h.execution(execution.id)).toMatchObject({
      status: EXECUTION_STATUS.queued,
      scheduled_for: later(PAUSED_RECHECK_MS),
      reason: 'tenant_paused',
      deferrals: 1,
    });
    expect(h.scheduler.scheduled.map((s) => s.instant)).toEqual([later(PAUSED_RECHECK_MS)]);
  });

  it('asks SES after the recheck interval: still DISABLED → deferred and the look recorded; ENABLED → the pause cleared and sent', async () => {
    // Prepare
    const h = await engineHarness(
      {},
      {},
      {
        verified_domains: ['acme.test'],
        tenant: TENANT,
        tenant_paused_at: NOW,
        tenant_paused_reason: 'first',
      },
    );
    const first = await h.queued(await h.contact());
    h.clock.advance(PAUSED_RECHECK_MS);
    h.tenants.status = { status: 'DISABLED', cause: 'complaint rate' };

    // Act
    const stillPaused = await h.execute(first.id);

    // Assess
    expect(stillPaused).toEqual({ kind: 'deferred' });
    expect(h.tenants.asked).toEqual([TENANT]);
    expect(h.senderState()).toMatchObject({
      tenant_paused_at: NOW,
      tenant_paused_reason: 'complaint rate',
      tenant_checked_at: later(PAUSED_RECHECK_MS),
    });

    // Act: an hour later SES has enabled it again
    h.clock.advance(PAUSED_RECHECK_MS);
    h.tenants.status = { status: 'ENABLED' };
    const sent = await h.execute(first.id);

    // Assess
    expect(sent).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.tenants.asked).toEqual([TENANT, TENANT]);
    expect(h.senderState()).toEqual({ verified_domains: ['acme.test'], tenant: TENANT });
    expect(h.mailer.emails).toHaveLength(1);
  });

  it('reads SES refusing a send through the tenant (SendingPausedException) as its pause: claim given back, deferred, the pause recorded, nothing thrown or failed', async () => {
    // Prepare
    const h = await engineHarness({}, {}, { verified_domains: ['acme.test'], tenant: TENANT });
    const execution = await h.queued(await h.contact());
    h.mailer.thenThrow(sendingPaused());

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(await h.execution(execution.id)).toEqual({
      ...execution,
      status: EXECUTION_STATUS.queued,
      scheduled_for: later(PAUSED_RECHECK_MS),
      reason: 'tenant_paused: SendingPausedException',
      deferrals: 1,
      updated_at: NOW,
    });
    expect(h.senderState()).toEqual({
      verified_domains: ['acme.test'],
      tenant: TENANT,
      tenant_paused_at: NOW,
      tenant_paused_reason: 'Sending is paused for this account.',
      tenant_checked_at: NOW,
    });
    expect(await h.monthSent()).toBe(0);
    expect((await h.dayCap(execution)).sent).toBe(0);

    // Act: another execution of the client, within the hour: deferred before any send
    const next = await h.queued(await h.contact());
    expect(await h.execute(next.id)).toEqual({ kind: 'deferred' });
    expect(h.mailer.emails).toHaveLength(1);
  });
});
