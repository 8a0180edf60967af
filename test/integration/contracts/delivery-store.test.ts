import { describe, expect, it } from 'vitest';
import { claimedExecution, claimOf, type Reservation } from '../../../shared/domain/executions/delivery-store.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../shared/domain/executions/execution-record.js';
import { SENT_STATUS } from '../../../shared/domain/sent-emails/sent-email-record.js';
import type { SettingsRecord } from '../../../shared/domain/settings/settings-store.js';
import {
  createClient,
  createContact,
  ENGINE_ADAPTERS,
  executionRecord,
  reservation,
  seedExecutions,
  type EnginePorts,
} from './engine-support.js';
import { AT, freshClientId, LATER } from './support.js';
import { audit, clientTemplate } from './workflow-fixtures.js';

const MONTH = AT.slice(0, 7);
const LATEST = '2026-01-15T12:00:00.000Z';

/** A client with one contact (active in its executions) and `count` queued executions of it, due at AT. */
async function prepare(stores: EnginePorts, count = 1, fields: Partial<ExecutionRecord> = {}) {
  const clientId = freshClientId();
  const client = await createClient(stores, clientId);
  const contact = await createContact(stores, clientId, { active_workflow_count: count });
  const executions = await seedExecutions(
    stores,
    clientId,
    Array.from({ length: count }, () => executionRecord(clientId, contact.id, fields)),
  );
  return { clientId, client, contact, executions };
}

/** What a claim leaves behind, read through the ports. */
async function footprint(stores: EnginePorts, r: Reservation) {
  const c = r.execution.client_id;
  return {
    execution: await stores.executions.get(c, r.execution.id),
    email: await stores.sentEmails.getWithLogs(c, r.sentEmail.id),
    monthSent: (await stores.settings.load(c, MONTH)).monthlyEmailsSent,
    cap: (await stores.delivery.load(r.execution)).cap,
  };
}

describe.each(ENGINE_ADAPTERS)('DeliveryStore contract (%s)', (name, makeStores) => {
  it('loads what a send reads: contact, settings, profile, customization, client template and the day cap', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const client = await createClient(stores, clientId);
    const contact = await createContact(stores, clientId);
    const settings: SettingsRecord = {
      id: clientId,
      client_id: clientId,
      tone_of_voice: 1,
      version: 1,
      created_at: AT,
      updated_at: AT,
    };
    await stores.settings.save(settings, undefined);
    const template = clientTemplate(clientId);
    await stores.templates.create(template);
    const audited = { clientId, workflowId: 1, expectedVersion: undefined, audit: audit(1, AT, 'a1'), at: AT };
    await stores.customizations.save({
      ...audited,
      overrides: { template_id: template.id },
      requireTemplateId: template.id,
    });
    const [withTemplate, systemTemplate] = await seedExecutions(stores, clientId, [
      executionRecord(clientId, contact.id, { template_id: template.id, priority_score: 40 }),
      executionRecord(clientId, contact.id, { template_id: 1, priority_score: 70 }),
    ]);

    // Act
    const context = await stores.delivery.load(withTemplate!);
    const system = await stores.delivery.load(systemTemplate!);

    // Assess
    expect(context).toEqual({
      contact,
      settings,
      client,
      customization: { workflow_id: 1, template_id: template.id, version: 1, updated_at: AT },
      template,
      cap: { sent: 0, pending: { [withTemplate!.id]: 40, [systemTemplate!.id]: 70 } },
    });
    expect(system.template).toBeUndefined();
  });

  it('claims a due execution: executing, quota and day cap raised, the sent e-mail queued with its log', async () => {
    // Prepare
    const stores = makeStores();
    const { executions } = await prepare(stores, 2);
    const [mine, other] = executions;
    const r = reservation(mine!);

    // Act
    const outcome = await stores.delivery.claim(r);

    // Assess
    expect(outcome).toBe('claimed');
    expect(await footprint(stores, r)).toEqual({
      execution: { ...mine, status: EXECUTION_STATUS.executing, updated_at: r.at, claim: claimOf(r) },
      email: { email: r.sentEmail, logs: [r.log] },
      monthSent: 1,
      cap: { sent: 1, pending: { [other!.id]: other!.priority_score } },
    });
  });

  it('answers taken when the execution changed since it was read (a second worker or delivery), writing nothing', async () => {
    // Prepare
    const stores = makeStores();
    const { executions } = await prepare(stores, 2);
    const [claimed, deferred] = executions;
    await stores.delivery.claim(reservation(claimed!));
    await stores.executions.defer(deferred!, AT, 'deferred', LATER);
    const before = await footprint(stores, reservation(deferred!));

    // Act
    const outcomes = [
      await stores.delivery.claim(reservation(claimed!, { at: LATER })),
      await stores.delivery.claim(reservation(deferred!, { at: LATER })),
    ];

    // Assess
    expect(outcomes).toEqual(['taken', 'taken']);
    expect(await footprint(stores, reservation(deferred!))).toEqual(before);
    expect((await footprint(stores, reservation(claimed!))).email?.logs).toHaveLength(1);
  });

  it('answers taken for an execution not yet due, writing nothing', async () => {
    const stores = makeStores();
    const { executions } = await prepare(stores, 1, { scheduled_for: LATER });
    const r = reservation(executions[0]!);

    expect(await stores.delivery.claim(r)).toBe('taken');
    expect(await footprint(stores, r)).toMatchObject({
      execution: executions[0],
      email: undefined,
      monthSent: 0,
      cap: { sent: 0 },
    });
  });

  it.each([
    ['day', { dayLimit: 1, monthLimit: 1000 }, 'quota_day'],
    ['month', { dayLimit: 100, monthLimit: 1 }, 'quota_month'],
  ] as const)(
    'answers %s quota when the client quota of that period is spent, leaving the execution as it was',
    async (_period, limits, expected) => {
      // Prepare
      const stores = makeStores();
      const { executions } = await prepare(stores, 2);
      const [first, second] = executions;
      await stores.delivery.claim(reservation(first!, limits));
      const r = reservation(second!, limits);

      // Act
      const outcome = await stores.delivery.claim(r);

      // Assess
      expect(outcome).toBe(expected);
      expect(await footprint(stores, r)).toEqual({
        execution: second,
        email: undefined,
        monthSent: 1,
        cap: { sent: 1, pending: { [second!.id]: second!.priority_score } },
      });
    },
  );

  it('counts a large client quota over several counter items, the month total still whole', async () => {
    const stores = makeStores();
    const { clientId, executions } = await prepare(stores, 3);

    for (const e of executions)
      expect(
        await stores.delivery.claim(reservation(e, { dayLimit: 20_000, monthLimit: 600_000, capLimit: null })),
      ).toBe('claimed');
    expect((await stores.settings.load(clientId, MONTH)).monthlyEmailsSent).toBe(3);
  });

  it('answers contact_cap when the contact day is full, writing nothing; without a cap (critical bypass) it claims', async () => {
    // Prepare
    const stores = makeStores();
    const { executions } = await prepare(stores, 3);
    const [first, capped, critical] = executions;
    await stores.delivery.claim(reservation(first!, { capLimit: 1 }));
    const r = reservation(capped!, { capLimit: 1 });

    // Act
    const outcome = await stores.delivery.claim(r);
    const bypass = await stores.delivery.claim(reservation(critical!, { capLimit: null }));

    // Assess
    expect([outcome, bypass]).toEqual(['contact_cap', 'claimed']);
    expect(await footprint(stores, r)).toEqual({
      execution: capped,
      email: undefined,
      monthSent: 2,
      cap: { sent: 1, pending: { [capped!.id]: capped!.priority_score, [critical!.id]: critical!.priority_score } },
    });
  });

  it('records a send: provider id and sent log, execution completed, contact figures moved', async () => {
    // Prepare
    const stores = makeStores();
    const { clientId, contact, executions } = await prepare(stores);
    const r = reservation(executions[0]!);
    await stores.delivery.claim(r);

    // Act
    await stores.delivery.recordSent(r, 'ses-message-1', LATER, 'log-sent');

    // Assess
    expect(await footprint(stores, r)).toEqual({
      execution: {
        ...executions[0],
        status: EXECUTION_STATUS.completed,
        processed_at: LATER,
        updated_at: LATER,
        sent_email_id: r.sentEmail.id,
      },
      email: {
        email: {
          ...r.sentEmail,
          provider_message_id: 'ses-message-1',
          status: SENT_STATUS.sent,
          status_updated_at: LATER,
        },
        logs: [
          r.log,
          { id: 'log-sent', created_at: LATER, status: SENT_STATUS.sent, provider_message_id: 'ses-message-1' },
        ],
      },
      monthSent: 1,
      cap: { sent: 1, pending: {} },
    });
    expect(await stores.contacts.get(clientId, contact.id)).toEqual({
      ...contact,
      total_emails_sent: 1,
      active_workflow_count: 0,
      last_workflow_at: LATER,
      // The workflow's last send, for conversions.
      [`sent_w${executions[0]!.workflow_id}`]: LATER,
    });
  });

  it('records a permanent refusal: execution failed with the reason, e-mail failed, counters given back', async () => {
    // Prepare
    const stores = makeStores();
    const { clientId, contact, executions } = await prepare(stores);
    const r = reservation(executions[0]!);
    await stores.delivery.claim(r);

    // Act
    await stores.delivery.recordRejected(r, 'MessageRejected: Email address is not verified.', LATER, 'log-failed');

    // Assess
    expect(await footprint(stores, r)).toEqual({
      execution: {
        ...executions[0],
        status: EXECUTION_STATUS.failed,
        reason: 'MessageRejected: Email address is not verified.',
        processed_at: LATER,
        updated_at: LATER,
        sent_email_id: r.sentEmail.id,
      },
      email: {
        email: { ...r.sentEmail, status: SENT_STATUS.failed, status_updated_at: LATER },
        logs: [
          r.log,
          {
            id: 'log-failed',
            created_at: LATER,
            status: SENT_STATUS.failed,
            detail: 'MessageRejected: Email address is not verified.',
          },
        ],
      },
      monthSent: 0,
      cap: { sent: 0, pending: {} },
    });
    expect((await stores.contacts.get(clientId, contact.id))?.active_workflow_count).toBe(0);
  });

  it('releases a claim for retry: counters given back, execution executing with retry_pending, then claimable once more', async () => {
    // Prepare
    const stores = makeStores();
    const { executions } = await prepare(stores);
    const r = reservation(executions[0]!);
    await stores.delivery.claim(r);

    // Act
    const released = await stores.delivery.releaseClaim(
      claimedExecution(r),
      'send_retry: TooManyRequestsException',
      LATER,
    );

    // Assess
    expect(released).toBe(true);
    const retrying = await stores.executions.get(r.execution.client_id, r.execution.id);
    expect(await footprint(stores, r)).toEqual({
      execution: {
        ...executions[0],
        status: EXECUTION_STATUS.executing,
        retry_pending: true,
        reason: 'send_retry: TooManyRequestsException',
        attempt: 2,
        updated_at: LATER,
      },
      // The attempt's queued log goes: the retry's claim writes its own, so the history keeps one.
      email: { email: r.sentEmail, logs: [] },
      monthSent: 0,
      // It waits for a slot of the contact's day again, with its priority.
      cap: { sent: 0, pending: { [r.execution.id]: r.execution.priority_score } },
    });
    const again = reservation(retrying!, { at: LATEST });
    expect(await stores.delivery.claim(again)).toBe('claimed');
    expect(await stores.delivery.claim(again)).toBe('taken');
    expect(await footprint(stores, again)).toEqual({
      execution: { ...retrying, updated_at: LATEST, retry_pending: undefined, claim: claimOf(again) },
      email: { email: again.sentEmail, logs: [again.log] },
      monthSent: 1,
      cap: { sent: 1, pending: {} },
    });
  });

  it('defers a throttled claim: counters given back, queued (1) again for its new time and in the stuck index by it; a stale read writes nothing', async () => {
    // Prepare
    const stores = makeStores();
    const { executions } = await prepare(stores);
    const r = reservation(executions[0]!);
    await stores.delivery.claim(r);

    // Act
    const deferred = await stores.delivery.deferClaim(
      claimedExecution(r),
      LATEST,
      'send_throttled: TooManyRequestsException',
      LATER,
    );
    const stale = await stores.delivery.deferClaim(claimedExecution(r), LATEST, 'second', LATER);

    // Assess
    expect([deferred, stale]).toEqual([true, false]);
    const queued = await stores.executions.get(r.execution.client_id, r.execution.id);
    expect(await footprint(stores, r)).toEqual({
      execution: {
        ...executions[0],
        status: EXECUTION_STATUS.queued,
        scheduled_for: LATEST,
        reason: 'send_throttled: TooManyRequestsException',
        throttled: 1,
        deferrals: 1,
        updated_at: LATER,
      },
      email: { email: r.sentEmail, logs: [] },
      monthSent: 0,
      cap: { sent: 0, pending: { [r.execution.id]: r.execution.priority_score } },
    });
    // Every page: the shared table holds other suites' pending work at the same fixed times.
    const listed = async (before: string) => {
      let cursor: string | undefined;
      let found = false;
      do {
        const page = await stores.executions.listExecutingBefore(before, 1_000, cursor);
        found ||= page.executions.some(
          (e) => e.client_id === r.execution.client_id && e.execution_id === r.execution.id,
        );
        cursor = page.cursor;
      } while (cursor);
      return found;
    };
    expect(await listed(LATEST)).toBe(false);
    expect(await listed('2026-01-15T12:00:00.001Z')).toBe(true);
    const again = reservation(queued!, { at: LATEST });
    expect(await stores.delivery.claim(again)).toBe('claimed');
  });

  it('refuses to release a claim that moved since it was read (another worker released or ended it), writing nothing', async () => {
    // Prepare
    const stores = makeStores();
    const { executions } = await prepare(stores);
    const r = reservation(executions[0]!);
    await stores.delivery.claim(r);
    expect(await stores.delivery.releaseClaim(claimedExecution(r), 'first', LATER)).toBe(true);
    const before = await footprint(stores, r);

    // Act: a second worker holding the same stale read
    const second = await stores.delivery.releaseClaim(claimedExecution(r), 'second', LATEST);

    // Assess
    expect(second).toBe(false);
    expect(await footprint(stores, r)).toEqual(before);
  });

  it('marks an ambiguous send outcome_unknown: the claim and its counters kept, the lease restarted', async () => {
    // Prepare
    const stores = makeStores();
    const { executions } = await prepare(stores);
    const r = reservation(executions[0]!);
    await stores.delivery.claim(r);

    // Act
    const marked = await stores.delivery.markOutcomeUnknown(
      claimedExecution(r),
      'send_outcome_unknown: TimeoutError',
      LATER,
    );
    const stale = await stores.delivery.markOutcomeUnknown(claimedExecution(r), 'again', LATEST);

    // Assess
    expect([marked, stale]).toEqual([true, false]);
    expect(await footprint(stores, r)).toEqual({
      execution: {
        ...executions[0],
        status: EXECUTION_STATUS.executing,
        claim: claimOf(r),
        outcome_unknown: true,
        reason: 'send_outcome_unknown: TimeoutError',
        updated_at: LATER,
      },
      email: { email: r.sentEmail, logs: [r.log] },
      monthSent: 1,
      cap: { sent: 1, pending: {} },
    });
  });

  it('finds no evidence before a notification, then the provider id a notification logged, and confirms the send from it', async () => {
    // Prepare
    const stores = makeStores();
    const { clientId, contact, executions } = await prepare(stores);
    const r = reservation(executions[0]!);
    await stores.delivery.claim(r);
    const claimed = (await stores.executions.get(clientId, r.execution.id))!;
    const before = await stores.delivery.findEvidence(claimed);
    // The Send notification of the e-mail SES accepted, found by its tags (no provider id was recorded).
    const tracked = await stores.tracking.findTaggedMessage(clientId, r.sentEmail.id, 'ses-late-1');
    await stores.tracking.record({
      message: tracked!,
      log: { id: 'n-send', created_at: LATER, status: SENT_STATUS.sent, provider_message_id: 'ses-late-1' },
    });

    // Act
    const evidence = await stores.delivery.findEvidence(claimed);
    const confirmed = await stores.delivery.confirmSent(claimed, evidence!, 'send_confirmed_by_notification', LATEST);
    const again = await stores.delivery.confirmSent(claimed, evidence!, 'send_confirmed_by_notification', LATEST);

    // Assess
    expect(before).toBeUndefined();
    expect(tracked).toMatchObject({ unconfirmed: true });
    expect([evidence, confirmed, again]).toEqual(['ses-late-1', 'done', 'moved']);
    expect(await footprint(stores, r)).toEqual({
      execution: {
        ...executions[0],
        status: EXECUTION_STATUS.completed,
        reason: 'send_confirmed_by_notification',
        processed_at: LATEST,
        updated_at: LATEST,
        sent_email_id: r.sentEmail.id,
      },
      email: {
        email: {
          ...r.sentEmail,
          provider_message_id: 'ses-late-1',
          status: SENT_STATUS.sent,
          status_updated_at: LATEST,
        },
        logs: [
          r.log,
          {
            id: 'n-send',
            created_at: LATER,
            status: SENT_STATUS.sent,
            provider_message_id: 'ses-late-1',
            workflow_id: r.execution.workflow_id,
          },
        ],
      },
      monthSent: 1,
      cap: { sent: 1, pending: {} },
    });
    expect(await stores.tracking.findMessage('ses-late-1')).toEqual({
      client_id: clientId,
      sent_email_id: r.sentEmail.id,
      contact_id: contact.id,
      workflow_id: r.execution.workflow_id,
    });
    expect(await stores.contacts.get(clientId, contact.id)).toMatchObject({
      total_emails_sent: 1,
      active_workflow_count: 0,
    });
    // The worker's own late answer finds the execution ended: nothing written twice.
    expect(await stores.delivery.recordSent(r, 'ses-late-1', LATEST, 'log-late')).toBe('moved');
    expect((await footprint(stores, r)).email?.logs).toHaveLength(2);
  });

  it('lists pending work older than a bound across clients, paged: claims by their time, queued executions by their due time; none once ended', async () => {
    // Prepare: three claims (one then sent), one overdue queued execution, one deferred past the bound
    const stores = makeStores();
    const { clientId, executions } = await prepare(stores, 5);
    const rs = executions.slice(0, 3).map((e) => reservation(e));
    for (const r of rs) await stores.delivery.claim(r);
    await stores.delivery.recordSent(rs[2]!, 'ses-done', LATER, 'log-done');
    await stores.executions.defer(executions[4]!, LATEST, 'quota_day', AT);

    // Act
    const seen: { client_id: number; execution_id: number }[] = [];
    let cursor: string | undefined;
    do {
      const page = await stores.executions.listExecutingBefore(LATER, 1, cursor);
      seen.push(...page.executions);
      cursor = page.cursor;
    } while (cursor);
    const none = await stores.executions.listExecutingBefore(AT, 10);

    // Assess
    const mine = seen
      .filter((e) => e.client_id === clientId)
      .map((e) => e.execution_id)
      .sort();
    expect(mine).toEqual([executions[0]!.id, executions[1]!.id, executions[3]!.id].sort());
    expect(none.executions.filter((e) => e.client_id === clientId)).toEqual([]);
  });

  it('answers taken for an executing execution that is not waiting to retry, writing nothing', async () => {
    // Prepare: the claim wrote updated_at = its own time, so a read taken after it matches the stored one.
    const stores = makeStores();
    const { executions } = await prepare(stores);
    const r = reservation(executions[0]!);
    await stores.delivery.claim(r);
    const executing = (await stores.executions.get(r.execution.client_id, r.execution.id))!;
    const before = await footprint(stores, r);

    // Act
    const outcome = await stores.delivery.claim(reservation(executing, { at: LATEST }));

    // Assess
    expect(outcome).toBe('taken');
    expect(await footprint(stores, r)).toEqual(before);
  });

  it('answers taken when the sent-email record has left the queued status, writing nothing', async () => {
    // Prepare: a second execution whose reservation names the first one's e-mail, already sent.
    const stores = makeStores();
    const { executions } = await prepare(stores, 2);
    const [sent, second] = executions;
    const first = reservation(sent!);
    await stores.delivery.claim(first);
    await stores.delivery.recordSent(first, 'ses-message-1', LATER, 'log-sent');
    const clash = { ...reservation(second!), sentEmail: { ...reservation(second!).sentEmail, id: first.sentEmail.id } };

    // Act
    const outcome = await stores.delivery.claim(clash);

    // Assess
    expect(outcome).toBe('taken');
    expect(await stores.executions.get(second!.client_id, second!.id)).toEqual(second);
    expect((await stores.settings.load(second!.client_id, MONTH)).monthlyEmailsSent).toBe(1);
    expect((await stores.sentEmails.get(sent!.client_id, first.sentEmail.id))?.status).toBe(SENT_STATUS.sent);
  });
});
