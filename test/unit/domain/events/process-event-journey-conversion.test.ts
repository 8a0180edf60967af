import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import {
  convertedAttribute,
  DEFAULT_CONVERSION_WINDOW_DAYS,
  lastSentAttribute,
  lastSentPlaceAttribute,
} from '../../../../shared/domain/workflows/goals.js';
import { CLIENT_ID, engineHarness, NOW, type EngineHarness } from '../engine/engine-harness.js';
import { cartJourney, publishIndex } from './journey-fixtures.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ago = (ms: number) => new Date(Date.parse(NOW) - ms).toISOString();

/** The cart journey with its own conversion window; `account_closed` is its exit (goal) event. */
async function journeyWithWindow(days: number) {
  const h = await engineHarness();
  publishIndex(h, cartJourney({ settings: { ...cartJourney().settings, conversion_window_days: days } }));
  const ann = await h.contact();
  return { h, ann };
}

/** The contact's last e-mail of the journey, as the executor leaves it: when, and from which send step. */
function lastSentOfJourney(h: EngineHarness, contactId: number, sentAt: string): void {
  const contact = h.stores.contacts.contacts.get(clientKey(CLIENT_ID, contactId)) as unknown as Record<string, unknown>;
  contact[lastSentAttribute(1000)] = sentAt;
  contact[lastSentPlaceAttribute(1000)] = { step_id: 'remind' };
}

async function exitEvent(h: EngineHarness, email: string) {
  return (await h.process((await h.ingest({ type: 'account_closed', email })).id))!;
}

const attributesOf = async (h: EngineHarness, contactId: number) =>
  (await h.storedContact(contactId)) as unknown as Record<string, unknown>;

describe('processEvent: a journey’s own conversion window', () => {
  it('does not count an exit event after a 1-day window as a conversion (the default window would)', async () => {
    // Prepare: the e-mail went 25 hours before the exit event.
    expect(DEFAULT_CONVERSION_WINDOW_DAYS).toBeGreaterThan(1);
    const { h, ann } = await journeyWithWindow(1);
    const sentAt = ago(25 * HOUR_MS);
    lastSentOfJourney(h, ann.id, sentAt);

    // Act
    const processed = await exitEvent(h, ann.email);

    // Assess: the journey is exited (its goal mark set) but not converted.
    expect(processed).not.toHaveProperty('converted_workflow_ids');
    expect(processed).not.toHaveProperty('converted_steps');
    const attributes = await attributesOf(h, ann.id);
    expect(attributes).not.toHaveProperty(convertedAttribute(1000));
    expect(attributes['goal_w1000']).toEqual({ at: NOW, event_id: processed.id });
  });

  it('counts an exit event within the 1-day window, on the send step the e-mail came from', async () => {
    // Prepare: the e-mail went 23 hours before.
    const { h, ann } = await journeyWithWindow(1);
    const sentAt = ago(23 * HOUR_MS);
    lastSentOfJourney(h, ann.id, sentAt);

    // Act
    const processed = await exitEvent(h, ann.email);

    // Assess
    expect(processed.converted_workflow_ids).toEqual([1000]);
    expect(processed.converted_steps).toEqual([{ journey_id: 1000, step_id: 'remind' }]);
    expect((await attributesOf(h, ann.id))[convertedAttribute(1000)]).toBe(sentAt);
  });

  it('counts the window’s last instant: exactly 1 day after the e-mail is still within it', async () => {
    // Prepare
    const { h, ann } = await journeyWithWindow(1);
    lastSentOfJourney(h, ann.id, ago(DAY_MS));

    // Act
    const processed = await exitEvent(h, ann.email);

    // Assess
    expect(processed.converted_workflow_ids).toEqual([1000]);
  });

  it('counts an exit event past the default window when the journey’s window is longer', async () => {
    // Prepare: 10 days; the e-mail went 2 days after the default window would have closed.
    const { h, ann } = await journeyWithWindow(DEFAULT_CONVERSION_WINDOW_DAYS + 3);
    const sentAt = ago((DEFAULT_CONVERSION_WINDOW_DAYS + 2) * DAY_MS);
    lastSentOfJourney(h, ann.id, sentAt);

    // Act
    const processed = await exitEvent(h, ann.email);

    // Assess
    expect(processed.converted_workflow_ids).toEqual([1000]);
    expect((await attributesOf(h, ann.id))[convertedAttribute(1000)]).toBe(sentAt);
  });
});
