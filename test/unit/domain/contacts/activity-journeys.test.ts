import { describe, expect, it } from 'vitest';
import { MemoryContactActivityStore } from '../../../../shared/adapters/memory/contact-activity-store.js';
import { listContactActivity } from '../../../../shared/domain/contacts/contact-activity.js';
import type { IndexedJourney } from '../../../../shared/domain/journeys/journey-records.js';
import { CLIENT_ID, engineHarness, type EngineHarness } from '../engine/engine-harness.js';

const JOURNEY_SEND = {
  workflow_id: 1000,
  run_id: 77,
  run_seq: 4,
  step_id: 'remind',
  journey_version: 2,
  category: 'marketing',
  topic_id: null,
} as const;

const INDEX = { version: 1, journeys: [{ id: 1000, name: 'Cart reminder', status: 'live' } as IndexedJourney] };

/** The harness with the client's journey index (the executor reads it to send a journey's step). */
async function harness() {
  const h = await engineHarness();
  h.stores.delivery.aggregates.journeys = { indexOf: () => INDEX, versionOf: () => undefined };
  return h;
}

/** The timeline over the harness's data, its journey index naming journey 1000; counts the index reads. */
function timeline(h: EngineHarness) {
  const reads = { journeyNames: 0 };
  const store = new MemoryContactActivityStore(h.stores.contactActivity.data, {
    journeys: {
      indexOf: () => {
        reads.journeyNames += 1;
        return INDEX;
      },
      versionOf: () => undefined,
    },
  });
  const list = (contactId: number) =>
    listContactActivity(
      { ...h.stores, contactActivity: store, cursorSecret: 's'.repeat(32) },
      CLIENT_ID,
      { id: contactId },
      {
        limit: 20,
      },
    );
  return { list, reads };
}

describe("the contact's timeline names a journey's send step", () => {
  it('names the journey, its run, step and version on the execution and the e-mail', async () => {
    // Prepare
    const h = await harness();
    const ann = await h.contact();
    const execution = await h.queued(ann, JOURNEY_SEND);
    await h.execute(execution.id);
    const { list, reads } = timeline(h);

    // Act
    const page = await list(ann.id);

    // Assess
    const item = page.items.find((i) => i.kind === 'execution' && i.id === execution.id);
    expect(item).toMatchObject({
      workflow_id: 1000,
      workflow_name: 'Cart reminder',
      run_id: 77,
      step_id: 'remind',
      journey_version: 2,
    });
    expect(page.items.find((i) => i.kind === 'sent_email')).toMatchObject({ workflow_name: 'Cart reminder' });
    expect(reads.journeyNames).toBe(1);
  });

  it("keeps the 8's items as they were and reads no journey index for them", async () => {
    const h = await harness();
    const ann = await h.contact();
    const execution = await h.queued(ann);
    await h.execute(execution.id);
    const { list, reads } = timeline(h);

    const page = await list(ann.id);

    const item = page.items.find((i) => i.kind === 'execution')!;
    expect(item).toMatchObject({ workflow_id: 1, workflow_name: 'Welcome' });
    expect(item).not.toHaveProperty('run_id');
    expect(item).not.toHaveProperty('step_id');
    expect(item).not.toHaveProperty('journey_version');
    expect(reads.journeyNames).toBe(0);
  });
});
