import { describe, expect, it } from 'vitest';
import { resolvePreferredTime } from '../../../../shared/domain/scheduling/preferred-time.js';
import type { SettingsFields } from '../../../../shared/domain/settings/settings-store.js';

const morning = { default_send_slot: 'morning' } as const;
const afternoon = { default_send_slot: 'afternoon' } as const;
const noSlot = { default_send_slot: null } as const;
const slots: SettingsFields = {
  morning_send_hour: 7,
  morning_send_minute: 45,
  afternoon_send_hour: 15,
  afternoon_send_minute: 10,
};

describe('resolvePreferredTime: customization → client slot → 09:00', () => {
  it.each([
    [
      'the customization hour and minute',
      { preferred_send_hour: 18, preferred_send_minute: 5 },
      afternoon,
      slots,
      { hour: 18, minute: 5 },
    ],
    [
      'the customization hour at :00 without a minute',
      { preferred_send_hour: 6 },
      morning,
      slots,
      { hour: 6, minute: 0 },
    ],
    [
      'the slot when a minute comes without an hour',
      { preferred_send_minute: 30 },
      morning,
      slots,
      { hour: 7, minute: 45 },
    ],
    ["the client's morning slot", {}, morning, slots, { hour: 7, minute: 45 }],
    ["the client's afternoon slot", {}, afternoon, slots, { hour: 15, minute: 10 }],
    ['the morning slot for a workflow without a slot', {}, noSlot, slots, { hour: 7, minute: 45 }],
    ['09:00 without settings', {}, morning, undefined, { hour: 9, minute: 0 }],
    ['14:00 for the afternoon without settings', {}, afternoon, undefined, { hour: 14, minute: 0 }],
    [
      'the default minute when only the slot hour is set',
      {},
      morning,
      { morning_send_hour: 8 },
      { hour: 8, minute: 0 },
    ],
    [
      'the default hour when only the slot minute is set',
      {},
      afternoon,
      { afternoon_send_minute: 20 },
      { hour: 14, minute: 20 },
    ],
  ])('uses %s', (_, overrides, workflow, settings, expected) => {
    expect(resolvePreferredTime(overrides, workflow, settings)).toEqual(expected);
  });
});
