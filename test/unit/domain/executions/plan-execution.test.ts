import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import { planExecution } from '../../../../shared/domain/executions/plan-execution.js';
import type { SettingsRecord } from '../../../../shared/domain/settings/settings-store.js';
import { openHourAttribute } from '../../../../shared/domain/tracking/open-hours.js';
import { findWorkflow } from '../../../../shared/domain/workflows/catalog.js';
import type { CustomizationRecord } from '../../../../shared/domain/workflows/customization.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const TOKYO = 'Asia/Tokyo';
/** 2026-01-15 10:00 in Tokyo (a Thursday). */
const EVENT_TS = '2026-01-15T01:00:00.000Z';
const WELCOME = findWorkflow(1)!; // mode 0, no send slot
const TIPS = findWorkflow(2)!; // mode 1, morning slot, a day's delay

/** A contact in Tokyo whose human opens are `{hour: count}` (stored as the tracking store leaves them). */
const contactWith = (opens: Record<number, number>): ContactRecord =>
  ({
    ...contactRecord({ timezone: TOKYO }),
    ...Object.fromEntries(Object.entries(opens).map(([h, n]) => [openHourAttribute(Number(h)), n])),
  }) as ContactRecord;
const hours = (counts: Record<number, number>) => Array.from({ length: 24 }, (_, h) => counts[h] ?? 0);
const customization = (fields: Partial<CustomizationRecord>): CustomizationRecord => ({
  workflow_id: 1,
  version: 1,
  ...fields,
});
const settings = { id: 7, client_id: 7, timezone: 'UTC' } as unknown as SettingsRecord;
const inTokyo = (at: Date) => DateTime.fromJSDate(at, { zone: TOKYO }).toFormat("yyyy-MM-dd'T'HH:mm");

describe('planExecution: send time mode 2 (optimal)', () => {
  it("sends at the contact's most likely open hour once it has 3 human opens, and says so", () => {
    const plan = planExecution({
      workflow: WELCOME,
      customization: customization({ send_time_mode: 2 }),
      settings,
      contact: contactWith({ 19: 3, 3: 0 }),
      eventTs: EVENT_TS,
      clientOpenHours: hours({ 8: 100 }),
    });
    expect({ at: inTokyo(plan.scheduledFor), reason: plan.reason, zone: plan.zone, capDay: plan.capDay }).toEqual({
      at: '2026-01-15T19:00',
      reason: 'contact_open_hours',
      zone: TOKYO,
      capDay: '2026-01-15',
    });
  });

  it("follows the client's aggregate while the contact has fewer than 3 human opens", () => {
    const plan = planExecution({
      workflow: WELCOME,
      customization: customization({ send_time_mode: 2 }),
      settings,
      contact: contactWith({ 19: 2 }),
      eventTs: EVENT_TS,
      clientOpenHours: hours({ 12: 10 }),
    });
    expect({ at: inTokyo(plan.scheduledFor), reason: plan.reason }).toEqual({
      at: '2026-01-15T12:00',
      reason: 'client_open_hours',
    });
  });

  it("falls back to the preferred time without history (the workflow's morning slot)", () => {
    const plan = planExecution({
      workflow: TIPS,
      customization: customization({ workflow_id: 2, send_time_mode: 2 }),
      settings,
      contact: contactWith({}),
      eventTs: EVENT_TS,
    });
    expect({ at: inTokyo(plan.scheduledFor), reason: plan.reason }).toEqual({
      at: '2026-01-17T09:00',
      reason: 'preferred_time',
    });
  });

  it("falls back to the customization's preferred hour, even when the due time is that very minute", () => {
    const plan = planExecution({
      workflow: WELCOME,
      customization: customization({ send_time_mode: 2, preferred_send_hour: 10 }),
      settings,
      contact: contactWith({}),
      eventTs: EVENT_TS,
    });
    expect({ at: inTokyo(plan.scheduledFor), reason: plan.reason }).toEqual({
      at: '2026-01-15T10:00',
      reason: 'preferred_time',
    });
  });

  it('sends at once without history nor preferred time, and says why', () => {
    const plan = planExecution({
      workflow: WELCOME,
      customization: customization({ send_time_mode: 2 }),
      settings,
      contact: contactWith({ 19: 1 }),
      eventTs: EVENT_TS,
    });
    expect({ at: plan.scheduledFor.toISOString(), reason: plan.reason }).toEqual({
      at: EVENT_TS,
      reason: 'no_open_history',
    });
  });
});

describe('planExecution: clients who never chose a mode', () => {
  it('ignore the open hours: mode 0 sends at once, a preferred hour still means mode 1', () => {
    const contact = contactWith({ 19: 9 });
    const immediate = planExecution({
      workflow: WELCOME,
      customization: undefined,
      settings,
      contact,
      eventTs: EVENT_TS,
    });
    const preferred = planExecution({
      workflow: WELCOME,
      customization: customization({ preferred_send_hour: 11 }),
      settings,
      contact,
      eventTs: EVENT_TS,
    });
    expect(immediate.scheduledFor.toISOString()).toBe(EVENT_TS);
    expect(immediate.reason).toBeUndefined();
    expect({ at: inTokyo(preferred.scheduledFor), reason: preferred.reason }).toEqual({
      at: '2026-01-15T11:00',
      reason: 'preferred_time',
    });
  });

  it('an explicit mode 0 wins over a preferred hour', () => {
    const plan = planExecution({
      workflow: TIPS,
      customization: customization({ workflow_id: 2, send_time_mode: 0, preferred_send_hour: 11, delay_minutes: 0 }),
      settings,
      contact: contactWith({}),
      eventTs: EVENT_TS,
    });
    expect(plan.scheduledFor.toISOString()).toBe(EVENT_TS);
  });
});
