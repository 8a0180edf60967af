import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { splitArmOf } from '../../../shared/domain/journeys/definition/split-hash.js';
import { call } from '../support/api.js';
import { createTestClient, type TestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { publishJourney, sendSyncEvent } from '../support/journeys.js';
import { listExecutions, type ExecutionItem } from '../support/executions.js';
import {
  awaitStatus,
  getSentEmail,
  injectAndAwait,
  SCANNER_UA,
  SENT_STATUS,
  sesEvent,
  sesMailOf,
  type TrackedEmail,
} from '../tracking/support.js';

const SETTINGS = {
  category: 'marketing',
  topic_id: null,
  critical: false,
  exit_events: ['upgraded'],
  conversion_window_days: 7,
};

/** The journey's send of the run (its execution completed), as GET /client/executions shows it. */
const awaitSendOf = (client: TestClient, runId: number) =>
  eventually(
    `run ${runId}'s e-mail sent`,
    async () => {
      const found = (await listExecutions(client.api_key)).find(
        (e) => (e as ExecutionItem & { run_id?: number }).run_id === runId,
      ) as (ExecutionItem & { step_id?: string }) | undefined;
      return found?.status === 3 && found.sent_email_id ? found : undefined;
    },
    { timeoutMs: 30_000 },
  );

/** The e-mail as the tracking helpers take it, delivered by the local SES. */
async function trackedOf(client: TestClient, contactId: number, sentEmailId: string): Promise<TrackedEmail> {
  const email = await awaitStatus(client.api_key, sentEmailId, SENT_STATUS.delivered);
  return {
    client: { id: client.id, api_key: client.api_key },
    contactId,
    address: email.to_email,
    email,
    messageId: email.provider_message_id!,
  };
}

const stepOf = (stats: { steps: { step_id: string }[] }, stepId: string) =>
  stats.steps.find((s) => s.step_id === stepId) as Record<string, unknown> | undefined;

const readStats = async (client: TestClient, journeyId: number) =>
  (await call('GET', `/client/journeys/${journeyId}/stats`, { key: client.api_key })).body.data;

describe('a journey step counts its e-mails’ engagement over HTTP', () => {
  it('a human open, a human click and a conversion count on the send step; a machine open only as a machine’s', async () => {
    // Prepare: project_created → tips (sent at once); a contact enters; its e-mail is delivered.
    const client = await createTestClient();
    const journeyId = await publishJourney(client, 'Tips', {
      trigger: { event: 'project_created', reentry: { mode: 'always' } },
      entry: 'tips',
      steps: [{ id: 'tips', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null }],
      settings: SETTINGS,
    });
    const email = `maker-${randomUUID().slice(0, 8)}@example.com`;
    const entered = await sendSyncEvent(client, { type: 'project_created', email, auto_create_contact: true });
    const runId = entered.journey_entries[0].run_id as number;
    const execution = await awaitSendOf(client, runId);
    expect(execution.step_id).toBe('tips');
    const t = await trackedOf(client, entered.contact_id, execution.sent_email_id!);
    const mail = sesMailOf(t);
    const at = (s: number) => new Date(Date.parse(t.email.created_at) + s * 1000).toISOString();

    // Act: a scanner opens (a machine), a person opens twice and clicks, then the contact upgrades (an exit event).
    await injectAndAwait(t, sesEvent.open(mail, at(60), { userAgent: SCANNER_UA, ipAddress: '198.51.100.9' }), at(60));
    await injectAndAwait(t, sesEvent.open(mail, at(600)), at(600));
    await injectAndAwait(t, sesEvent.open(mail, at(660)), at(660));
    await injectAndAwait(t, sesEvent.click(mail, at(700), 'https://example.com/docs'), at(700));
    await sendSyncEvent(client, { type: 'upgraded', email });

    // Assess: the step's row counts one of each, the human open once, the machine's apart; the e-mail shows its logs.
    const stats = await eventually(
      'the engagement counted on the step',
      async () => {
        const read = await readStats(client, journeyId);
        const tips = read && stepOf(read, 'tips');
        return tips?.['human_clicks'] === 1 && tips['converted'] === 1 && tips['machine_opens'] === 1
          ? read
          : undefined;
      },
      { timeoutMs: 40_000, intervalMs: 1_000 },
    );
    expect(stepOf(stats, 'tips')).toEqual({
      step_id: 'tips',
      entered: 1,
      waiting: 0,
      left: 1,
      sent: 1,
      delivered: 1,
      human_opens: 1,
      human_clicks: 1,
      machine_opens: 1,
      machine_clicks: 0,
      converted: 1,
      completed: 1,
      exited: 0,
      ended: 0,
      ways: {},
    });
    expect((await getSentEmail(client.api_key, t.email.id)).logs.map((l) => l.is_bot)).toContain(true);
  }, 90_000);

  it('a machine open alone counts no human open on the step', async () => {
    // Prepare: the same journey; a contact's e-mail delivered.
    const client = await createTestClient();
    const journeyId = await publishJourney(client, 'Tips', {
      trigger: { event: 'project_created', reentry: { mode: 'always' } },
      entry: 'tips',
      steps: [{ id: 'tips', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null }],
      settings: SETTINGS,
    });
    const email = `maker-${randomUUID().slice(0, 8)}@example.com`;
    const entered = await sendSyncEvent(client, { type: 'project_created', email, auto_create_contact: true });
    const execution = await awaitSendOf(client, entered.journey_entries[0].run_id as number);
    const t = await trackedOf(client, entered.contact_id, execution.sent_email_id!);
    const at = (s: number) => new Date(Date.parse(t.email.created_at) + s * 1000).toISOString();

    // Act: only a link scanner opens it.
    await injectAndAwait(
      t,
      sesEvent.open(sesMailOf(t), at(30), { userAgent: SCANNER_UA, ipAddress: '198.51.100.9' }),
      at(30),
    );

    // Assess: counted as a machine's open, never a human's.
    const stats = await eventually(
      'the machine open counted',
      async () => {
        const read = await readStats(client, journeyId);
        return read && stepOf(read, 'tips')?.['machine_opens'] === 1 ? read : undefined;
      },
      { timeoutMs: 40_000, intervalMs: 1_000 },
    );
    expect(stepOf(stats, 'tips')).toMatchObject({ sent: 1, delivered: 1, human_opens: 0, human_clicks: 0 });
  }, 60_000);

  it('a split’s automatic winner: decided on human opens once each arm sent 2, shown in the stats, taken by the next run', async () => {
    // Prepare: a 50/50 split whose arms each send; the winner on human opens after 2 e-mails per arm.
    const client = await createTestClient();
    const journeyId = await publishJourney(client, 'Subject test', {
      trigger: { event: 'trial_started', reentry: { mode: 'always' } },
      entry: 'ab',
      steps: [
        {
          id: 'ab',
          type: 'split',
          arms: [
            { name: 'A', percent: 50, next: 'mail_a' },
            { name: 'B', percent: 50, next: 'mail_b' },
          ],
          winner: { metric: 'human_opens', min_sends_per_arm: 2 },
        },
        { id: 'mail_a', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
        { id: 'mail_b', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
      ],
      settings: SETTINGS,
    });
    const enter = async () => {
      const email = `trial-${randomUUID().slice(0, 8)}@example.com`;
      const entered = await sendSyncEvent(client, { type: 'trial_started', email, auto_create_contact: true });
      const runId = entered.journey_entries[0].run_id as number;
      return { runId, contactId: entered.contact_id as number, execution: await awaitSendOf(client, runId) };
    };

    // Act: contacts enter one by one; a person opens every e-mail of arm B (counted before the next enters), none of A.
    const sends = { mail_a: 0, mail_b: 0 };
    for (let n = 0; n < 24 && (sends.mail_a < 2 || sends.mail_b < 2); n += 1) {
      const { contactId, execution } = await enter();
      const step = execution.step_id as 'mail_a' | 'mail_b';
      sends[step] += 1;
      if (step !== 'mail_b') continue;
      const t = await trackedOf(client, contactId, execution.sent_email_id!);
      const at = new Date(Date.parse(t.email.created_at) + 600_000).toISOString();
      await injectAndAwait(t, sesEvent.open(sesMailOf(t), at), at);
      await eventually(
        'the open counted on arm B',
        async () => {
          const read = await readStats(client, journeyId);
          return read && stepOf(read, 'mail_b')?.['human_opens'] === sends.mail_b ? read : undefined;
        },
        { timeoutMs: 40_000, intervalMs: 500 },
      );
    }
    expect(sends.mail_a).toBeGreaterThanOrEqual(2);
    expect(sends.mail_b).toBeGreaterThanOrEqual(2);

    // Assess: B won, with each arm's rate then; the stats show each arm's totals.
    const stats = await eventually(
      'the winner decided',
      async () => {
        const read = await readStats(client, journeyId);
        return read?.splits?.[0]?.winner ? read : undefined;
      },
      { timeoutMs: 40_000, intervalMs: 500 },
    );
    const split = stats.splits[0];
    expect(split.step_id).toBe('ab');
    expect(split.winner).toEqual({
      arm: 'B',
      metric: 'human_opens',
      rates: { A: 0, B: expect.any(Number) },
      sent: { A: expect.any(Number), B: expect.any(Number) },
      decided_at: expect.any(String),
    });
    expect(split.winner.rates.B).toBeGreaterThan(0);
    expect(split.arms.map((a: { arm: string }) => a.arm)).toEqual(['A', 'B']);
    expect(split.arms[0]).toMatchObject({ runs: sends.mail_a, sent: sends.mail_a, human_opens: 0, human_open_rate: 0 });
    expect(split.arms[1]).toMatchObject({ runs: sends.mail_b, sent: sends.mail_b, human_opens: sends.mail_b });

    // Assess: a run the hash would send down A now takes B.
    let tried = 0;
    for (; tried < 12; tried += 1) {
      const next = await enter();
      if (splitArmOf(next.runId, 'ab', [50, 50]) !== 0) {
        expect(next.execution.step_id).toBe('mail_b');
        continue;
      }
      expect(next.execution.step_id, `run ${next.runId} hashes to A`).toBe('mail_b');
      break;
    }
    expect(tried, 'a run whose hash is arm A entered').toBeLessThan(12);
    const after = await readStats(client, journeyId);
    expect(after.splits[0].winner).toEqual(split.winner);
  }, 240_000);
});
