import { describe, expect, it } from 'vitest';
import { PLANS } from '../../../../shared/domain/plans/catalog.js';
import { SettingsPatch } from '../../../../shared/domain/settings/schemas.js';
import { applySettingsPatch, checkPlanLimits } from '../../../../shared/domain/settings/update-settings.js';
import { issuesToItems } from '../../../../shared/validation/issue-items.js';

const free = PLANS.find((p) => p.tier === 'free')!;

/** What parseInput would answer: the error items of a body. */
function itemsOf(body: unknown) {
  const result = SettingsPatch.safeParse(body, { reportInput: true });
  return result.success ? [] : issuesToItems(result.error.issues);
}

describe('SettingsPatch', () => {
  it('accepts every writable field and normalises values', () => {
    const result = SettingsPatch.parse({
      morning_send_hour: 9,
      morning_send_minute: 30,
      send_window_allowed_days: ' 5,1 ,3',
      timezone: 'pst',
      brand_primary_color: '#ab12cd',
      brand_logo_url: 'https://cdn.example.com/logo.png',
      email_from_address: ' Hello@Example.COM ',
      enabled_workflows: [3, 1],
      brand_name: '  Acme  ',
      company_name: '',
    });
    expect(result).toMatchObject({
      send_window_allowed_days: '1,3,5',
      timezone: 'America/Los_Angeles',
      brand_primary_color: '#AB12CD',
      email_from_address: 'hello@example.com',
      enabled_workflows: [1, 3],
      brand_name: 'Acme',
      company_name: null,
    });
  });

  it('gives exactly one item per field when every bound is broken at once', () => {
    const items = itemsOf({
      morning_send_hour: 24,
      morning_send_minute: 60,
      afternoon_send_hour: -1,
      afternoon_send_minute: 99,
      quiet_hour_start: 30,
      quiet_hour_end: 1.5,
      send_window_enabled: 'yes',
      send_window_start_hour: 100,
      send_window_end_hour: -5,
      send_window_allowed_days: '0,8',
      timezone: 'Mars/Olympus',
      max_emails_per_day: -1,
      queue_timeout_days: 0,
      custom_email_quota_per_day: -3,
      custom_email_quota_per_month: -4,
      custom_max_workflows: -1,
      enable_critical_bypass: 'no',
      ai_advisor_enabled: 1,
      auto_approve_enabled: 'true',
      enabled_workflows: [1, 99, 100],
      preferences: [-1],
      brand_name: 'x'.repeat(101),
      brand_logo_url: 'http://insecure.example.com/logo.png',
      brand_primary_color: 'red',
      brand_secondary_color: '#12345',
      company_name: 'y'.repeat(201),
      company_address: 'z'.repeat(501),
      email_from_name: 'Line\nBreak',
      email_from_address: 'not-an-email',
      email_reply_to: 'also@bad',
      email_signature: 's'.repeat(2001),
    });
    const keys = items.map((i) => i.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      [
        'morning_send_hour',
        'morning_send_minute',
        'afternoon_send_hour',
        'afternoon_send_minute',
        'quiet_hour_start',
        'quiet_hour_end',
        'send_window_enabled',
        'send_window_start_hour',
        'send_window_end_hour',
        'send_window_allowed_days',
        'timezone',
        'max_emails_per_day',
        'queue_timeout_days',
        'custom_email_quota_per_day',
        'custom_email_quota_per_month',
        'custom_max_workflows',
        'enable_critical_bypass',
        'ai_advisor_enabled',
        'auto_approve_enabled',
        'enabled_workflows',
        'preferences',
        'brand_name',
        'brand_logo_url',
        'brand_primary_color',
        'brand_secondary_color',
        'company_name',
        'company_address',
        'email_from_name',
        'email_from_address',
        'email_reply_to',
        'email_signature',
      ].sort(),
    );
    const byKey = Object.fromEntries(items.map((i) => [i.key, i.condition]));
    expect(byKey).toMatchObject({
      morning_send_hour: 'max',
      afternoon_send_hour: 'min',
      quiet_hour_end: 'type',
      send_window_enabled: 'type',
      timezone: 'format',
      enabled_workflows: 'enum',
      brand_name: 'max',
      brand_logo_url: 'format',
      brand_primary_color: 'format',
      email_from_name: 'format',
      email_from_address: 'format',
    });
  });

  it.each([
    'morning_send_hour',
    'afternoon_send_minute',
    'quiet_hour_start',
    'send_window_end_hour',
    'custom_max_workflows',
  ])('refuses %s together with its clear flag', (field) => {
    const value = 3;
    expect(itemsOf({ [field]: value, [`clear_${field}`]: true })).toEqual([
      { condition: 'format', key: field, error: `Send either ${field} or clear_${field}: true, not both` },
    ]);
  });

  it('reports a field/flag conflict together with other broken bounds', () => {
    const items = itemsOf({ quiet_hour_start: 3, clear_quiet_hour_start: true, morning_send_hour: 99 });
    expect(items.map((i) => i.key).sort()).toEqual(['morning_send_hour', 'quiet_hour_start']);
  });

  it('allows a clear flag with the field null or absent, and a false flag with a value', () => {
    expect(itemsOf({ quiet_hour_start: null, clear_quiet_hour_start: true })).toEqual([]);
    expect(itemsOf({ quiet_hour_start: 4, clear_quiet_hour_start: false })).toEqual([]);
  });

  it('refuses repeated workflow ids and an empty day list', () => {
    expect(
      itemsOf({ enabled_workflows: [1, 1], send_window_allowed_days: '' })
        .map((i) => i.key)
        .sort(),
    ).toEqual(['enabled_workflows', 'send_window_allowed_days']);
  });
});

describe('applySettingsPatch', () => {
  it('keeps absent fields, unsets null and cleared ones, replaces the rest', () => {
    const current = { morning_send_hour: 8, quiet_hour_start: 22, brand_name: 'Old', timezone: 'UTC' };
    const patch = SettingsPatch.parse({ brand_name: 'New', timezone: null, clear_quiet_hour_start: true });
    expect(applySettingsPatch(current, patch)).toEqual({ morning_send_hour: 8, brand_name: 'New' });
  });
});

describe('checkPlanLimits', () => {
  it('lets custom limits tighten the plan but not raise it', () => {
    const patch = SettingsPatch.parse({
      custom_max_workflows: 4,
      custom_email_quota_per_day: 101,
      custom_email_quota_per_month: 500,
    });
    expect(checkPlanLimits(applySettingsPatch({}, patch), patch, free).map((i) => [i.key, i.condition])).toEqual([
      ['custom_max_workflows', 'max'],
      ['custom_email_quota_per_day', 'max'],
    ]);
  });

  it('caps enabled workflows at custom_max_workflows, else at the plan', () => {
    const tooMany = SettingsPatch.parse({ enabled_workflows: [1, 2, 3, 4] });
    expect(checkPlanLimits(applySettingsPatch({}, tooMany), tooMany, free)).toEqual([
      { condition: 'max', key: 'enabled_workflows', error: 'At most 3 workflows may be enabled; 4 are' },
    ]);
    const tighter = SettingsPatch.parse({ enabled_workflows: [1, 2], custom_max_workflows: 1 });
    expect(checkPlanLimits(applySettingsPatch({}, tighter), tighter, free).map((i) => i.key)).toEqual([
      'enabled_workflows',
    ]);
    const lowered = SettingsPatch.parse({ custom_max_workflows: 1 });
    expect(
      checkPlanLimits(applySettingsPatch({ enabled_workflows: [1, 2] }, lowered), lowered, free).map((i) => i.key),
    ).toEqual(['custom_max_workflows']);
  });

  it('does not re-check limits the patch does not touch', () => {
    const patch = SettingsPatch.parse({ brand_name: 'Acme' });
    expect(checkPlanLimits({ enabled_workflows: [1, 2, 3, 4, 5], brand_name: 'Acme' }, patch, free)).toEqual([]);
  });
});
