import { describe, expect, it, vi } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import { BROADCAST_CANCELLED, BROADCAST_PAUSED } from '../../../../shared/domain/executions/execute-workflow.js';
import { createTopic } from '../../../../shared/domain/topics/manage-topics.js';
import { CLIENT_ID, engineHarness, NOW } from '../engine/engine-harness.js';

const SENDING = { status: 'sending', shards: 4 };

describe("a broadcast's recipient at the send: its broadcast's state, category, topic and subject (memory ports)", () => {
  it('sends it with its own subject, marketing headers, and names its broadcast and variant on the e-mail', async () => {
    // Prepare: workflow 0 is no workflow the free plan enables, and the send must not ask
    const h = await engineHarness();
    const contact = await h.contact();
    const recipient = await h.recipient(contact, SENDING, { subject_override: 'Spring sale, <%= it.contact.email %>' });

    // Act
    const outcome = await h.execute(recipient.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    expect(h.mailer.emails[0]!.subject).toBe(`Spring sale, ${contact.email}`);
    expect(h.mailer.emails[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const email = await h.stores.sentEmails.get(CLIENT_ID, (await h.execution(recipient.id))!.sent_email_id!);
    expect(email).toMatchObject({ broadcast_id: 3, variant: 0, workflow_id: 0 });
  });

  it("sends an A/B test's holdout the winner's template and subject, and leaves it waiting before a winner", async () => {
    // Prepare: a holdout (no template, no variant) of a broadcast without a winner, another of one with a winner
    const h = await engineHarness();
    const held = { template_id: 0, variant: undefined, holdout: true } as const;
    const early = await h.recipient(await h.contact(), SENDING, held);
    const before = await h.execute(early.id);
    const won = { ...SENDING, winner: { variant: 1, template_id: 2, subject: 'Winner, <%= it.contact.email %>' } };
    const contact = await h.contact();
    const late = await h.recipient(contact, won, held);

    // Act
    const outcome = await h.execute(late.id);

    // Assess: nothing sent before the winner, the recipient left queued (its holdout partition is the pacer's)
    expect(before).toEqual({ kind: 'not_due' });
    expect(await h.execution(early.id)).toMatchObject({ status: EXECUTION_STATUS.queued, holdout: true });
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    expect(h.mailer.emails[0]!.subject).toBe(`Winner, ${contact.email}`);
    const email = await h.stores.sentEmails.get(CLIENT_ID, (await h.execution(late.id))!.sent_email_id!);
    // Sent the winner's template; counted on the totals only (not on a variant's row of the test).
    expect(email).toMatchObject({ broadcast_id: 3, email_template_id: 2 });
    expect(email?.variant).toBeUndefined();
    expect(email?.ab_test).toBeUndefined();
  });

  it.each([
    ['cancelled', { status: 'cancelled', shards: 4 }],
    ['gone', undefined],
  ])('cancels it, unsent, when its broadcast is %s', async (_, broadcast) => {
    const h = await engineHarness();
    const recipient = await h.recipient(await h.contact(), broadcast);

    const outcome = await h.execute(recipient.id);

    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.cancelled, reason: BROADCAST_CANCELLED });
    expect(h.mailer.emails).toHaveLength(0);
  });

  it('puts it back in its due index, due now, with no message of its own, while its broadcast is paused', async () => {
    // Prepare
    const h = await engineHarness();
    const recipient = await h.recipient(await h.contact(), { status: 'paused', shards: 4 });
    const defer = vi.spyOn(h.stores.executions, 'defer');

    // Act
    const outcome = await h.execute(recipient.id);

    // Assess
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(defer).toHaveBeenCalledWith(expect.objectContaining({ id: recipient.id }), NOW, BROADCAST_PAUSED, NOW, {
      duePartitions: 4,
    });
    expect(await h.execution(recipient.id)).toMatchObject({
      status: EXECUTION_STATUS.queued,
      reason: BROADCAST_PAUSED,
    });
    expect(h.queue.sent.filter((s) => s.queue === 'workflow')).toEqual([]);
    expect(h.scheduler.scheduled).toEqual([]);
    expect(h.mailer.emails).toHaveLength(0);
  });

  it("defers it past a spent quota back to the due index, under the recipient's quiet hours, with no message", async () => {
    // Prepare: one e-mail a day; the quota's next window (00:00 UTC) is inside Tokyo's quiet hours 08–12 local
    const h = await engineHarness({ custom_email_quota_per_day: 1, quiet_hour_start: 8, quiet_hour_end: 12 });
    const first = await h.recipient(await h.contact(), SENDING);
    const second = await h.recipient(await h.contact(), SENDING, { send_zone: 'Asia/Tokyo' });
    await h.execute(first.id);
    const defer = vi.spyOn(h.stores.executions, 'defer');

    // Act
    const outcome = await h.execute(second.id);

    // Assess: 00:00 UTC = 09:00 Tokyo, quiet until 12:00 Tokyo = 03:00 UTC
    expect(outcome).toEqual({ kind: 'deferred' });
    expect(defer).toHaveBeenCalledWith(
      expect.objectContaining({ id: second.id }),
      '2026-01-16T03:00:00.000Z',
      'deferred: daily e-mail quota reached (2026-01-15)',
      NOW,
      { duePartitions: 4 },
    );
    expect(h.queue.sent.filter((s) => s.queue === 'workflow')).toEqual([]);
    expect(h.scheduler.scheduled).toEqual([]);
  });

  it('defers it with its own message, as any execution, once its broadcast is sent (its pacer is done)', async () => {
    const h = await engineHarness({ custom_email_quota_per_day: 1 });
    const first = await h.recipient(await h.contact(), { status: 'sent', shards: 4 });
    const second = await h.recipient(await h.contact(), { status: 'sent', shards: 4 });
    await h.execute(first.id);

    expect(await h.execute(second.id)).toEqual({ kind: 'deferred' });
    expect(h.scheduler.scheduled.map((s) => s.queue)).toEqual(['workflow']);
  });

  it("skips a contact that left the broadcast's topic, and names the topic on a sent e-mail", async () => {
    const h = await engineHarness();
    const topic = await createTopic(h.stores, CLIENT_ID, { name: 'News', description: '', default_subscribed: true });
    const left = await h.recipient(await h.contact({ [`topic_${topic.id}`]: false } as never), SENDING, {
      topic_id: topic.id,
    });
    const stayed = await h.recipient(await h.contact(), SENDING, { topic_id: topic.id });

    expect(await h.execute(left.id)).toEqual({
      kind: 'finished',
      status: EXECUTION_STATUS.skipped,
      reason: 'topic_unsubscribed',
    });
    expect(await h.execute(stayed.id)).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    const email = await h.stores.sentEmails.get(CLIENT_ID, (await h.execution(stayed.id))!.sent_email_id!);
    expect(email).toMatchObject({ topic_id: topic.id });
  });

  it.each([
    ['suppressed', { is_subscribed: false, unsubscribe_reason: 'hard_bounce' }, 'suppressed'],
    ['unsubscribed', { is_subscribed: false, unsubscribe_reason: 'user_request' }, 'unsubscribed'],
  ])('skips a %s member with its reason', async (_, fields, reason) => {
    const h = await engineHarness();
    const recipient = await h.recipient(await h.contact(fields as never), SENDING);
    expect(await h.execute(recipient.id)).toEqual({ kind: 'finished', status: EXECUTION_STATUS.skipped, reason });
  });
});
