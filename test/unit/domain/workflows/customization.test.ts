import { describe, expect, it } from 'vitest';
import { findWorkflow } from '../../../../shared/domain/workflows/catalog.js';
import { snapshotOf, toCustomizationView } from '../../../../shared/domain/workflows/customization.js';
import { CustomizationPatch } from '../../../../shared/domain/workflows/schemas.js';
import { applyCustomizationPatch } from '../../../../shared/domain/workflows/update-customization.js';
import { issuesToItems } from '../../../../shared/validation/issue-items.js';

const welcome = findWorkflow(1)!;
const onboarding = findWorkflow(2)!;

describe('CustomizationPatch (DESIGN.md §5 bounds)', () => {
  it('reports every bound at once, one item per field', () => {
    const result = CustomizationPatch.safeParse(
      {
        delay_minutes: 525_601,
        priority_score: -1,
        preferred_send_hour: 24,
        preferred_send_minute: 60,
        template_id: 0,
      },
      { reportInput: true },
    );
    expect(result.success).toBe(false);
    expect(issuesToItems(result.error!.issues).map((i) => [i.key, i.condition])).toEqual([
      ['template_id', 'min'],
      ['delay_minutes', 'max'],
      ['priority_score', 'min'],
      ['preferred_send_hour', 'max'],
      ['preferred_send_minute', 'max'],
    ]);
  });

  it('accepts the bounds themselves', () => {
    expect(
      CustomizationPatch.safeParse({
        delay_minutes: 525_600,
        priority_score: 100,
        preferred_send_hour: 0,
        preferred_send_minute: 59,
      }).success,
    ).toBe(true);
  });
});

describe('customization overrides', () => {
  it('sets, keeps and (with null) removes overrides', () => {
    expect(
      applyCustomizationPatch({ delay_minutes: 5, priority_score: 9 }, { delay_minutes: null, preferred_send_hour: 8 }),
    ).toEqual({
      priority_score: 9,
      preferred_send_hour: 8,
    });
  });

  it('derives send_time_mode 1 from a preferred hour, else the workflow default', () => {
    expect(toCustomizationView(welcome, undefined)).toMatchObject({
      template_id: 1,
      delay_minutes: 0,
      send_time_mode: 0,
      preferred_send_hour: null,
      preferred_send_minute: null,
    });
    expect(toCustomizationView(welcome, { workflow_id: 1, preferred_send_hour: 17 })).toMatchObject({
      send_time_mode: 1,
      preferred_send_hour: 17,
      preferred_send_minute: 0,
    });
    expect(toCustomizationView(onboarding, undefined).send_time_mode).toBe(1);
  });

  it('snapshots every override for the audit trail', () => {
    expect(snapshotOf({ template_id: 1001 }, welcome)).toEqual({
      template_id: 1001,
      delay_minutes: null,
      priority_score: null,
      preferred_send_hour: null,
      preferred_send_minute: null,
      send_time_mode: 0,
      conversion_window_days: null,
      exit_events: null,
      topic_id: null,
    });
  });
});

describe('exit_events and conversion_window_days', () => {
  const itemsOf = (input: unknown) => {
    const result = CustomizationPatch.safeParse(input, { reportInput: true });
    return result.success ? [] : issuesToItems(result.error.issues).map((i) => [i.key, i.condition]);
  };

  it('accepts up to 10 event types, * for any event, null for the default, and windows of 1 to 90 days', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `goal_${i}`);
    expect(CustomizationPatch.parse({ exit_events: ten, conversion_window_days: 90 })).toEqual({
      exit_events: ten,
      conversion_window_days: 90,
    });
    expect(itemsOf({ exit_events: ['*', 'plan.upgraded', 'a:b-c'], conversion_window_days: 1 })).toEqual([]);
    expect(CustomizationPatch.parse({ exit_events: null, conversion_window_days: null })).toEqual({
      exit_events: null,
      conversion_window_days: null,
    });
  });

  it.each([
    [{ exit_events: Array.from({ length: 11 }, (_, i) => `e${i}`) }, [['exit_events', 'max']]],
    [{ exit_events: 'upgrade' }, [['exit_events', 'type']]],
    [{ exit_events: ['upgrade', 7] }, [['exit_events.1', 'type']]],
    [{ exit_events: ['upgrade', 'has space'] }, [['exit_events.1', 'format']]],
    [{ exit_events: ['upgrade', 'upgrade'] }, [['exit_events', 'format']]],
    [{ conversion_window_days: 0 }, [['conversion_window_days', 'min']]],
    [{ conversion_window_days: 91 }, [['conversion_window_days', 'max']]],
    [{ conversion_window_days: 1.5 }, [['conversion_window_days', 'type']]],
  ])('refuses %j with a precise item', (input, items) => {
    expect(itemsOf(input)).toEqual(items);
  });

  it('shows the values in effect (override, else the catalog default and 7 days) and the overrides', () => {
    const trial = findWorkflow(3)!;
    expect(toCustomizationView(trial, undefined)).toMatchObject({
      exit_events: ['upgrade'],
      conversion_window_days: 7,
      overrides: { exit_events: null, conversion_window_days: null },
    });
    expect(
      toCustomizationView(trial, { workflow_id: 3, exit_events: ['purchase'], conversion_window_days: 30 }),
    ).toMatchObject({
      exit_events: ['purchase'],
      conversion_window_days: 30,
      overrides: { exit_events: ['purchase'], conversion_window_days: 30 },
    });
    expect(applyCustomizationPatch({ exit_events: ['a'] }, { exit_events: null, conversion_window_days: 3 })).toEqual({
      conversion_window_days: 3,
    });
  });

  it('gives each catalog workflow its default exits (docs/api-guide.md workflow table)', () => {
    expect(
      Object.fromEntries(
        [1, 2, 3, 4, 5, 6, 7, 8].map((id) => [findWorkflow(id)!.key, findWorkflow(id)!.default_exit_events]),
      ),
    ).toEqual({
      welcome: [],
      onboarding_tips: ['subscription_cancelled'],
      trial_ending: ['upgrade'],
      upgrade_thanks: [],
      payment_failed: ['payment_succeeded'],
      cancellation_winback: ['upgrade', 'subscription_reactivated'],
      feature_adoption: [],
      re_engagement: ['*'],
    });
  });
});

describe('send_time_mode', () => {
  it.each([0, 1, 2, null])('accepts %s', (mode) => {
    expect(CustomizationPatch.parse({ send_time_mode: mode })).toEqual({ send_time_mode: mode });
  });

  it.each([3, -1, 1.5, '2', true])('answers %j with one enum item on send_time_mode', (mode) => {
    const result = CustomizationPatch.safeParse({ send_time_mode: mode }, { reportInput: true });
    expect(result.success).toBe(false);
    expect(issuesToItems(result.error!.issues).map((i) => [i.key, i.condition])).toEqual([['send_time_mode', 'enum']]);
  });

  it('shows the chosen mode in effect and as an override; without one it is still derived as before', () => {
    const optimal = toCustomizationView(welcome, { workflow_id: 1, version: 1, send_time_mode: 2 });
    const derived = toCustomizationView(welcome, { workflow_id: 1, version: 1, preferred_send_hour: 8 });
    const explicitZero = toCustomizationView(welcome, {
      workflow_id: 1,
      version: 1,
      preferred_send_hour: 8,
      send_time_mode: 0,
    });
    expect([optimal.send_time_mode, optimal.overrides.send_time_mode]).toEqual([2, 2]);
    expect([derived.send_time_mode, derived.overrides.send_time_mode]).toEqual([1, null]);
    expect([explicitZero.send_time_mode, explicitZero.preferred_send_hour]).toEqual([0, 8]);
    expect(toCustomizationView(onboarding, undefined).send_time_mode).toBe(1);
  });

  it('is an override like the others: set by a value, removed by null, audited with the mode in effect', () => {
    const set = applyCustomizationPatch({ delay_minutes: 5 }, { send_time_mode: 2 });
    const removed = applyCustomizationPatch(set, { send_time_mode: null });
    expect(set).toEqual({ delay_minutes: 5, send_time_mode: 2 });
    expect(removed).toEqual({ delay_minutes: 5 });
    expect(snapshotOf(set, onboarding)).toMatchObject({ send_time_mode: 2 });
    expect(snapshotOf(removed, onboarding)).toMatchObject({ send_time_mode: 1 });
  });
});
