import { describe, expect, it } from 'vitest';
import { compileIndexEntry } from '../../../../shared/domain/journeys/journey-index.js';
import type { JourneyDefinition, WaitForEventStep } from '../../../../shared/domain/journeys/definition/types.js';
import type { JourneyRecord, JourneyVersionRecord } from '../../../../shared/domain/journeys/journey-records.js';
import { cartDefinition } from './journeys-harness.js';

const AT = '2026-01-01T00:00:00.000Z';
const journey: JourneyRecord = {
  id: 1000,
  client_id: 7,
  name: 'Cart',
  status: 'live',
  live_version: 2,
  draft: {},
  draft_version: 3,
  created_at: AT,
  updated_at: AT,
};
const versionOf = (definition: JourneyDefinition): JourneyVersionRecord => ({
  client_id: 7,
  journey_id: 1000,
  version: 2,
  definition,
  moves: {},
  published_at: AT,
});

describe('compileIndexEntry', () => {
  it("compiles the live version's trigger, entry, settings, awaited events and templates, each once", () => {
    // Prepare
    const base = cartDefinition();
    const definition: JourneyDefinition = {
      ...base,
      steps: [
        { ...(base.steps[0] as WaitForEventStep), on_timeout: 'again' },
        {
          id: 'again',
          type: 'wait_for_event',
          event: 'checkout_completed',
          match_key: false,
          timeout_minutes: 5,
          on_event: null,
          on_timeout: 'remind',
        },
        base.steps[1]!,
        { id: 'other', type: 'send', template_id: 1002, send_time: { mode: 0 }, next: 'remind' },
      ],
    };

    // Act
    const entry = compileIndexEntry(journey, versionOf(definition));

    // Assess
    expect(entry).toEqual({
      id: 1000,
      name: 'Cart',
      status: 'live',
      live_version: 2,
      trigger: base.trigger,
      entry: 'wait_checkout',
      settings: base.settings,
      awaited_events: ['checkout_completed'],
      templates_in_use: [3, 1002],
    });
  });

  it('refuses a journey that is neither live nor paused', () => {
    expect(() => compileIndexEntry({ ...journey, status: 'archived' }, versionOf(cartDefinition()))).toThrow(
      /archived/,
    );
  });
});
