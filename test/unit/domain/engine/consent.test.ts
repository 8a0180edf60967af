import { describe, expect, it } from 'vitest';
import { sesNotification } from '../../../../local/engine/ses-notifications.js';
import { withFooter } from '../../../../shared/domain/executions/compliance-footer.js';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import { CustomizationPatch } from '../../../../shared/domain/workflows/schemas.js';
import { WORKFLOWS } from '../../../../shared/domain/workflows/catalog.js';
import { createTopic } from '../../../../shared/domain/topics/manage-topics.js';
import { CLIENT_ID, engineHarness, NOW } from './engine-harness.js';

/** payment_failed as processing queues it: the transactional workflow of the catalog. */
const PAYMENT_FAILED = { workflow_id: 5, template_id: 5, critical: true, priority_score: 100 } as const;

describe('transactional and marketing mail (memory ports)', () => {
  it("fixes each workflow's category in the catalog: payment_failed is transactional, the rest marketing", () => {
    expect(Object.fromEntries(WORKFLOWS.map((w) => [w.key, w.category]))).toEqual({
      welcome: 'marketing',
      onboarding_tips: 'marketing',
      trial_ending: 'marketing',
      upgrade_thanks: 'marketing',
      payment_failed: 'transactional',
      cancellation_winback: 'marketing',
      feature_adoption: 'marketing',
      re_engagement: 'marketing',
    });
  });

  it('sends transactional mail to an unsubscribed contact, without one-click headers, linking the preference page', async () => {
    // Prepare
    const h = await engineHarness({ enabled_workflows: [1, 5] });
    const ann = await h.contact({ is_subscribed: false, unsubscribed_at: NOW, unsubscribe_reason: 'unsubscribe_link' });
    const execution = await h.queued(ann, PAYMENT_FAILED);

    // Act
    const outcome = await h.execute(execution.id);

    // Assess
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    const email = h.mailer.emails[0]!;
    expect(email.headers).toBeUndefined();
    expect(email.html).toMatch(/<a href="https:\/\/els\.test\/u\/[^"]+"[^>]*>Manage your email preferences<\/a>/);
    expect(email.html).not.toContain('>Unsubscribe<');
    expect(email.text).toMatch(/Email preferences: https:\/\/els\.test\/u\//);
  });

  it('keeps RFC 8058 one-click unsubscribe on marketing mail', async () => {
    const h = await engineHarness();
    const execution = await h.queued(await h.contact());

    await h.execute(execution.id);

    const email = h.mailer.emails[0]!;
    expect(email.headers).toEqual({
      'List-Unsubscribe': expect.stringMatching(/^<https:\/\/els\.test\/u\/[^>]+>$/),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(email.html).toMatch(/>Unsubscribe<\/a> from these emails/);
  });

  it.each([
    ['the API', 'no longer interested'],
    ['a one-click link', 'unsubscribe_link'],
    ["SES's own unsubscribe", 'ses_unsubscribe'],
    ['no reason', undefined],
  ])(
    'skips (6) marketing mail `unsubscribed` for a contact unsubscribed by %s, and sends its transactional mail',
    async (_how, reason) => {
      // Prepare
      const h = await engineHarness({ enabled_workflows: [1, 5] });
      const ann = await h.contact({
        is_subscribed: false,
        unsubscribed_at: NOW,
        ...(reason ? { unsubscribe_reason: reason } : {}),
      });
      const marketing = await h.queued(ann);
      const transactional = await h.queued(ann, PAYMENT_FAILED);

      // Act
      const outcomes = [await h.execute(marketing.id), await h.execute(transactional.id)];

      // Assess
      expect(outcomes).toEqual([
        { kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'unsubscribed' },
        { kind: 'finished', status: EXECUTION_STATUS.completed },
      ]);
      expect(h.mailer.emails.map((e) => e.to)).toEqual([ann.email]);
    },
  );

  it.each(['hard_bounce', 'complaint', 'transient_bounces', 'suppressed'])(
    'sends nothing of any category to an address suppressed for %s: both skipped `suppressed`',
    async (reason) => {
      // Prepare
      const h = await engineHarness({ enabled_workflows: [1, 5] });
      const ann = await h.contact({ is_subscribed: false, unsubscribed_at: NOW, unsubscribe_reason: reason });
      const marketing = await h.queued(ann);
      const transactional = await h.queued(ann, PAYMENT_FAILED);

      // Act
      const outcomes = [await h.execute(marketing.id), await h.execute(transactional.id)];

      // Assess
      expect(outcomes).toEqual([
        { kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'suppressed' },
        { kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'suppressed' },
      ]);
      expect(await h.execution(transactional.id)).toMatchObject({
        status: EXECUTION_STATUS.skipped,
        reason: 'suppressed',
      });
      expect(h.mailer.emails).toEqual([]);
    },
  );

  it('suppresses the transactional mail of a contact a hard bounce reaches after it was queued', async () => {
    // Prepare: queued while subscribed; the bounce of an earlier e-mail arrives before its send
    const h = await engineHarness({ enabled_workflows: [1, 5] });
    const ann = await h.contact();
    const first = await h.queued(ann);
    await h.execute(first.id);
    const transactional = await h.queued(ann, PAYMENT_FAILED);
    const at = h.clock.now();
    const bounce = {
      type: 'Bounce',
      bounceType: 'Permanent',
      bounceSubType: 'General',
      diagnosticCode: 'smtp; 550 5.1.1',
      status: '5.1.1',
    } as const;
    await h.track(sesNotification(bounce, h.mailer.emails[0]!, h.mailer.idOf(0), at, at, 'us-east-1'));

    // Act
    const outcome = await h.execute(transactional.id);

    // Assess
    expect(await h.storedContact(ann.id)).toMatchObject({ is_subscribed: false, unsubscribe_reason: 'hard_bounce' });
    expect(outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'suppressed' });
    expect(h.mailer.emails).toHaveLength(1);
  });
});

describe('suppression survives an API unsubscription (memory port)', () => {
  it.each([
    ['hard_bounce', 'hard_bounce'],
    ['unsubscribe_link', 'asked by phone'],
  ])('a contact unsubscribed for %s, unsubscribed again with a reason, keeps %s', async (reason, kept) => {
    const h = await engineHarness();
    const ann = await h.contact({ is_subscribed: false, unsubscribed_at: NOW, unsubscribe_reason: reason });

    const updated = await h.stores.contacts.updateSubscription(ann.client_id, ann.id, {
      is_subscribed: false,
      unsubscribe_reason: 'asked by phone',
      at: NOW,
    });

    expect(updated).toMatchObject({ is_subscribed: false, unsubscribe_reason: kept });
  });
});

describe('the category is not a customization', () => {
  it.each([['transactional'], ['marketing'], [null]])(
    'refuses category %j in the PATCH: 422 read_only on category',
    (value) => {
      const parsed = CustomizationPatch.safeParse({ priority_score: 10, category: value });

      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues).toEqual([
        expect.objectContaining({ path: ['category'], code: 'custom', params: { condition: 'read_only' } }),
      ]);
    },
  );

  it('accepts a PATCH without category', () => {
    expect(CustomizationPatch.safeParse({ priority_score: 10 }).success).toBe(true);
  });
});

describe('withFooter', () => {
  const rendered = { html: '<p>Hi</p>', text: 'Hi' };
  const url = 'https://els.test/u/t';

  it.each([
    ['marketing', 'Unsubscribe'],
    ['transactional', 'Email preferences'],
  ] as const)(
    'appends the %s footer with its link labelled %s to a template that lacks the link',
    (category, label) => {
      expect(withFooter(rendered, { unsubscribeUrl: url, companyAddress: '1 Main St', category })).toEqual({
        html: `<p>Hi</p>\n<p style="font-size:12px;color:#6B7280;">1 Main St<br><a href="${url}">${label}</a></p>`,
        text: `Hi\n\n--\n1 Main St\n${label}: ${url}\n`,
      });
    },
  );
});

describe('topics at send time (memory ports)', () => {
  /** A harness whose onboarding tips (2, marketing) belong to a topic, and payment_failed (5) is enabled too. */
  async function withTopic(defaultSubscribed = true) {
    const h = await engineHarness({ enabled_workflows: [1, 2, 5] });
    const topic = await createTopic(h.stores, CLIENT_ID, {
      name: 'Tips',
      description: '',
      default_subscribed: defaultSubscribed,
    });
    await h.stores.customizations.save({
      clientId: CLIENT_ID,
      workflowId: 2,
      overrides: { topic_id: topic.id },
      expectedVersion: undefined,
      at: NOW,
      audit: {
        id: 'a1',
        workflow_id: 2,
        key_id: 1,
        auth_method: 'api_key',
        request_id: null,
        at: NOW,
        before: {} as never,
        after: {} as never,
      },
    });
    return { h, topic };
  }
  const TIPS = { workflow_id: 2, template_id: 2, priority_score: 60 } as const;

  it.each([
    ['left the topic', true, { topic_1: false }, 'topic_unsubscribed'],
    ['never chose an opt-in topic', false, {}, 'topic_unsubscribed'],
    ['joined an opt-in topic', false, { topic_1: true }, undefined],
    ['never chose a default topic', true, {}, undefined],
  ] as const)('a contact that %s: the topic mail is %s', async (_what, defaultSubscribed, choice, reason) => {
    // Prepare
    const { h } = await withTopic(defaultSubscribed);
    const ann = await h.contact(choice as never);
    const tips = await h.queued(ann, TIPS);

    // Act
    const outcome = await h.execute(tips.id);

    // Assess
    expect(outcome).toEqual(
      reason
        ? { kind: 'finished', status: EXECUTION_STATUS.skipped, reason }
        : { kind: 'finished', status: EXECUTION_STATUS.completed },
    );
    expect(h.mailer.emails).toHaveLength(reason ? 0 : 1);
  });

  it('leaves the rest of the marketing mail and the transactional mail of a contact that left one topic', async () => {
    const { h } = await withTopic();
    const ann = await h.contact({ topic_1: false } as never);
    const ids = [(await h.queued(ann)).id, (await h.queued(ann, TIPS)).id, (await h.queued(ann, PAYMENT_FAILED)).id];

    const outcomes = [];
    for (const id of ids) outcomes.push(await h.execute(id));

    expect(outcomes).toEqual([
      { kind: 'finished', status: EXECUTION_STATUS.completed },
      { kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'topic_unsubscribed' },
      { kind: 'finished', status: EXECUTION_STATUS.completed },
    ]);
  });

  it('a contact that left all marketing mail is skipped `unsubscribed` whatever its topic choices say', async () => {
    const { h } = await withTopic();
    const ann = await h.contact({ is_subscribed: false, unsubscribed_at: NOW, topic_1: true } as never);
    const tips = await h.queued(ann, TIPS);

    expect(await h.execute(tips.id)).toEqual({
      kind: 'finished',
      status: EXECUTION_STATUS.skipped,
      reason: 'unsubscribed',
    });
  });

  it('a topic deleted while a customization still names it is no topic: the mail goes', async () => {
    const { h, topic } = await withTopic();
    await h.stores.topics.save(CLIENT_ID, { topics: [], next_id: topic.id + 1, version: 2 });
    const ann = await h.contact({ topic_1: false } as never);
    const tips = await h.queued(ann, TIPS);

    expect(await h.execute(tips.id)).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
  });
});
