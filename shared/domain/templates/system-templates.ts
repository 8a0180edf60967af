import { WORKFLOWS } from '../workflows/catalog.js';
import { button, htmlLayout, list, p, textLayout, v } from './system-layout.js';
import { TEMPLATE_TYPES, type TemplateRecord } from './template-store.js';

/**
 * The system templates: one per catalog workflow, same id as the workflow, served from code (never stored).
 * Besides the layout's variables they use `event.*` — the triggering event's fields (plan, feature, metadata…) —
 * always with a default, so every template reads well without them.
 */

/** When this copy was last revised; shown as the system templates' created_at/updated_at. */
export const SYSTEM_TEMPLATES_REVISED_AT = '2026-01-01T00:00:00.000Z';

interface Copy {
  workflowId: number;
  subject: string;
  previewText: string;
  html: string;
  text: string;
}

const COPY: Copy[] = [
  {
    workflowId: 1,
    subject: `Welcome to ${v.brand}, ${v.firstName}!`,
    previewText: 'Your account is ready. Here’s the one thing worth doing first.',
    html: [
      p(`Hi ${v.firstName},`),
      p(`Welcome to ${v.brand}! We’re really glad you’re here.`),
      p(
        'Your account is ready. The quickest way to see what it can do for you is to set up your first project — ' +
          'it takes about five minutes, and everything after that builds on it.',
      ),
      button('Set up your first project'),
      p(
        'Questions, ideas, or something not working the way you expected? Just reply to this email — a real person reads every reply.',
      ),
    ].join('\n'),
    text: `Hi ${v.firstName},

Welcome to ${v.brand}! We’re really glad you’re here.

Your account is ready. The quickest way to see what it can do for you is to set up your first project — it takes about five minutes, and everything after that builds on it.

Set up your first project: ${v.appUrl}

Questions, ideas, or something not working the way you expected? Just reply to this email — a real person reads every reply.`,
  },
  {
    workflowId: 2,
    subject: `3 tips to get more out of ${v.brand}`,
    previewText: 'Small habits that make the biggest difference in your first week.',
    html: [
      p(`Good morning ${v.firstName},`),
      p(
        `Now that you’ve had a day to look around ${v.brand}, here are three habits our most successful customers share:`,
      ),
      list([
        '<strong>Start with one goal.</strong> Pick the single outcome that matters most this month and set things up for that first. Everything else can wait.',
        '<strong>Bring your team in early.</strong> Invite the people you work with now, so everyone builds on the same setup instead of their own.',
        '<strong>Check in once a week.</strong> Ten minutes every Monday is enough to see what’s working and what needs a nudge.',
      ]),
      button('Open your dashboard'),
      p('Stuck on anything? Reply and tell us where — we’ll point you in the right direction.'),
    ].join('\n'),
    text: `Good morning ${v.firstName},

Now that you’ve had a day to look around ${v.brand}, here are three habits our most successful customers share:

1. Start with one goal. Pick the single outcome that matters most this month and set things up for that first. Everything else can wait.
2. Bring your team in early. Invite the people you work with now, so everyone builds on the same setup instead of their own.
3. Check in once a week. Ten minutes every Monday is enough to see what’s working and what needs a nudge.

Open your dashboard: ${v.appUrl}

Stuck on anything? Reply and tell us where — we’ll point you in the right direction.`,
  },
  {
    workflowId: 3,
    subject: `Your ${v.brand} trial ends soon`,
    previewText: 'Keep everything you’ve set up — choosing a plan takes a minute.',
    html: [
      p(`Hi ${v.firstName},`),
      p(`Your free trial of ${v.brand} ends in a few days.`),
      p(
        'Everything you’ve set up so far — your projects, settings and data — stays exactly where it is when you ' +
          'choose a plan, so there’s nothing to redo and no interruption for you or your team.',
      ),
      button('Choose a plan'),
      p(
        `Not sure which plan fits? Reply and tell us how you use ${v.brand}. We’ll recommend one honestly, even if it’s the smallest.`,
      ),
    ].join('\n'),
    text: `Hi ${v.firstName},

Your free trial of ${v.brand} ends in a few days.

Everything you’ve set up so far — your projects, settings and data — stays exactly where it is when you choose a plan, so there’s nothing to redo and no interruption for you or your team.

Choose a plan: ${v.appUrl}

Not sure which plan fits? Reply and tell us how you use ${v.brand}. We’ll recommend one honestly, even if it’s the smallest.`,
  },
  {
    workflowId: 4,
    subject: `Thank you for upgrading, ${v.firstName}`,
    previewText: 'Your new plan is active. Here’s what you just unlocked.',
    html: [
      p(`Hi ${v.firstName},`),
      p(
        `Thank you for upgrading to <strong><%= it.event.plan ?? "your new plan" %></strong>! It’s active right now — no restart or sign-in needed.`,
      ),
      p('A good way to make the most of it from day one:'),
      list([
        'Look at the features that were greyed out before — they’re all switched on now.',
        'Raise any limits you were working around; your new allowances apply immediately.',
        'Tell your team, so they can start using what’s new.',
      ]),
      button('Explore your new plan'),
      p(
        `We’re grateful for your trust in ${v.brand}. If anything about the upgrade is unclear, just reply — we’re happy to help.`,
      ),
    ].join('\n'),
    text: `Hi ${v.firstName},

Thank you for upgrading to <%= it.event.plan ?? "your new plan" %>! It’s active right now — no restart or sign-in needed.

A good way to make the most of it from day one:

- Look at the features that were greyed out before — they’re all switched on now.
- Raise any limits you were working around; your new allowances apply immediately.
- Tell your team, so they can start using what’s new.

Explore your new plan: ${v.appUrl}

We’re grateful for your trust in ${v.brand}. If anything about the upgrade is unclear, just reply — we’re happy to help.`,
  },
  {
    workflowId: 5,
    subject: `Action needed: your payment to ${v.brand} didn’t go through`,
    previewText: 'Please update your payment details to keep your account running smoothly.',
    html: [
      p(`Hi ${v.firstName},`),
      p(`We tried to process your latest payment for ${v.brand}, but it was declined.`),
      p(
        'This usually happens when a card has expired, has been replaced, or when a bank flags an unfamiliar charge. ' +
          'Your account is still active and nothing has been lost.',
      ),
      p('To avoid any interruption, please check your payment details:'),
      button('Update payment details'),
      p(
        'If you’ve already sorted this out, thank you — you can ignore this email. If you think this is a mistake, reply and we’ll look into it right away.',
      ),
    ].join('\n'),
    text: `Hi ${v.firstName},

We tried to process your latest payment for ${v.brand}, but it was declined.

This usually happens when a card has expired, has been replaced, or when a bank flags an unfamiliar charge. Your account is still active and nothing has been lost.

To avoid any interruption, please check your payment details: ${v.appUrl}

If you’ve already sorted this out, thank you — you can ignore this email. If you think this is a mistake, reply and we’ll look into it right away.`,
  },
  {
    workflowId: 6,
    subject: `We’d love to have you back, ${v.firstName}`,
    previewText: 'Your account is still here — and we’d value your honest feedback.',
    html: [
      p(`Hi ${v.firstName},`),
      p(`It’s been a few days since you cancelled your ${v.brand} subscription. We’re sorry to see you go.`),
      p(
        'Could you tell us what we could have done better? Just hit reply — even one sentence helps us improve, ' +
          'and we read every answer.',
      ),
      p(
        'If you change your mind, your account and data are still here, and you can pick up exactly where you left off.',
      ),
      button('Reactivate my account'),
      p('Either way, thank you for the time you spent with us.'),
    ].join('\n'),
    text: `Hi ${v.firstName},

It’s been a few days since you cancelled your ${v.brand} subscription. We’re sorry to see you go.

Could you tell us what we could have done better? Just hit reply — even one sentence helps us improve, and we read every answer.

If you change your mind, your account and data are still here, and you can pick up exactly where you left off: ${v.appUrl}

Either way, thank you for the time you spent with us.`,
  },
  {
    workflowId: 7,
    subject: `Getting more out of <%= it.event.feature ?? "your new favourite feature" %>`,
    previewText: 'A few ideas for what to try next.',
    html: [
      p(`Hi ${v.firstName},`),
      p(
        `We noticed you just tried <strong><%= it.event.feature ?? "one of our features" %></strong> — great choice! Here’s how customers get the most out of it:`,
      ),
      list([
        '<strong>Make it routine.</strong> Features pay off when they become part of a weekly habit, not a one-off.',
        '<strong>Combine it.</strong> It works best alongside the tools you already use every day.',
        '<strong>Share the results.</strong> Show your team what it did for you — they’ll find uses you hadn’t thought of.',
      ]),
      button('Try it again'),
      p('Have an idea for how it could work better for you? Reply and let us know.'),
    ].join('\n'),
    text: `Hi ${v.firstName},

We noticed you just tried <%= it.event.feature ?? "one of our features" %> — great choice! Here’s how customers get the most out of it:

- Make it routine. Features pay off when they become part of a weekly habit, not a one-off.
- Combine it. It works best alongside the tools you already use every day.
- Share the results. Show your team what it did for you — they’ll find uses you hadn’t thought of.

Try it again: ${v.appUrl}

Have an idea for how it could work better for you? Reply and let us know.`,
  },
  {
    workflowId: 8,
    subject: `We miss you at ${v.brand}`,
    previewText: 'Here’s what’s new since your last visit.',
    html: [
      p(`Hi ${v.firstName},`),
      p(`It’s been a while since we last saw you at ${v.brand}, so we wanted to check in.`),
      p(
        'A lot has improved since your last visit, and your account is exactly as you left it — ' +
          'your work is waiting whenever you’re ready.',
      ),
      button('See what’s new'),
      p(
        `If ${v.brand} isn’t useful to you right now, that’s completely fine. You can unsubscribe below and we won’t email you about this again.`,
      ),
    ].join('\n'),
    text: `Hi ${v.firstName},

It’s been a while since we last saw you at ${v.brand}, so we wanted to check in.

A lot has improved since your last visit, and your account is exactly as you left it — your work is waiting whenever you’re ready.

See what’s new: ${v.appUrl}

If ${v.brand} isn’t useful to you right now, that’s completely fine. You can unsubscribe below and we won’t email you about this again.`,
  },
];

function buildSystemTemplate(copy: Copy): TemplateRecord {
  const workflow = WORKFLOWS.find((w) => w.id === copy.workflowId);
  if (!workflow) throw new Error(`system template for unknown workflow ${copy.workflowId}`);
  return {
    id: workflow.default_template_id,
    client_id: 0,
    type: TEMPLATE_TYPES.system,
    name: workflow.name,
    subject: copy.subject,
    preview_text: copy.previewText,
    html_body: htmlLayout({
      subject: copy.subject,
      previewText: copy.previewText,
      content: copy.html,
      category: workflow.category,
    }),
    text_body: textLayout(copy.text, workflow.category),
    created_at: SYSTEM_TEMPLATES_REVISED_AT,
    updated_at: SYSTEM_TEMPLATES_REVISED_AT,
  };
}

export const SYSTEM_TEMPLATES: readonly TemplateRecord[] = COPY.map(buildSystemTemplate);

export function findSystemTemplate(id: number): TemplateRecord | undefined {
  return SYSTEM_TEMPLATES.find((t) => t.id === id);
}
