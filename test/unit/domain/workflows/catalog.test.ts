import { describe, expect, it } from 'vitest';
import {
  effectiveEnabledWorkflows,
  findWorkflow,
  WORKFLOWS,
  workflowsTriggeredBy,
} from '../../../../shared/domain/workflows/catalog.js';

describe('workflow catalog', () => {
  it('lists the eight system workflows with ids 1–8 in order', () => {
    expect(WORKFLOWS.map((w) => [w.id, w.key])).toEqual([
      [1, 'welcome'],
      [2, 'onboarding_tips'],
      [3, 'trial_ending'],
      [4, 'upgrade_thanks'],
      [5, 'payment_failed'],
      [6, 'cancellation_winback'],
      [7, 'feature_adoption'],
      [8, 're_engagement'],
    ]);
  });

  it('sends onboarding tips a day later in the morning, the win-back three days later', () => {
    expect(findWorkflow(2)).toMatchObject({
      default_delay_minutes: 1440,
      default_send_time_mode: 1,
      default_send_slot: 'morning',
    });
    expect(findWorkflow(6)).toMatchObject({ default_delay_minutes: 4320 });
  });

  it('marks only payment failed as critical', () => {
    expect(WORKFLOWS.filter((w) => w.critical).map((w) => w.key)).toEqual(['payment_failed']);
  });

  it.each([
    [{ type: 'signup' }, ['welcome', 'onboarding_tips']],
    [{ type: 'upgrade' }, ['upgrade_thanks']],
    [{ type: 'plan_changed', upgrade: true }, ['upgrade_thanks']],
    [{ type: 'plan_changed', upgrade: false }, []],
    [{ type: 'payment_failed' }, ['payment_failed']],
    [{ type: 'subscription_cancelled' }, ['cancellation_winback']],
    [{ type: 'feature_used' }, ['feature_adoption']],
    [{ type: 'inactive' }, ['re_engagement']],
    [{ type: 'trial_ending' }, ['trial_ending']],
  ])('event %j starts %j', (event, keys) => {
    expect(workflowsTriggeredBy(event).map((w) => w.key)).toEqual(keys);
  });

  it('enables the first workflows the plan allows unless the client chose', () => {
    expect(effectiveEnabledWorkflows(undefined, 3)).toEqual([1, 2, 3]);
    expect(effectiveEnabledWorkflows([5, 2], 3)).toEqual([5, 2]);
    expect(effectiveEnabledWorkflows([], 3)).toEqual([]);
  });
});
