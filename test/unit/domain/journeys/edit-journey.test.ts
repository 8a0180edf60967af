import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../../shared/errors.js';
import { createJourney } from '../../../../shared/domain/journeys/create-journey.js';
import { impactOf, saveDraft, updateJourney } from '../../../../shared/domain/journeys/edit-journey.js';
import { asDraft, cartDefinition, journeysHarness } from './journeys-harness.js';

describe('impactOf', () => {
  it('names each live step removed, changed or unchanged, whatever the order of its keys', () => {
    // Prepare
    const [wait, send] = cartDefinition().steps;
    const reordered = Object.fromEntries(Object.entries(wait!).reverse());
    const draft = { steps: [reordered, { ...send, template_id: 4 }] };
    const dropped = { steps: [reordered] };

    // Act
    const changed = impactOf(cartDefinition().steps, draft);
    const removed = impactOf(cartDefinition().steps, dropped);

    // Assess
    expect(changed).toEqual([
      { step_id: 'wait_checkout', change: 'unchanged', waiting: 0 },
      { step_id: 'remind', change: 'changed', waiting: 0 },
    ]);
    expect(removed[1]).toEqual({ step_id: 'remind', change: 'removed', waiting: 0 });
    // The gauge's count by step, 0 where no run is.
    expect(impactOf(cartDefinition().steps, dropped, { remind: 3 })[1]).toEqual({
      step_id: 'remind',
      change: 'removed',
      waiting: 3,
    });
  });
});

describe('saveDraft', () => {
  it('saves a half-done draft with its issues, and refuses a stale draft_version', async () => {
    // Prepare
    const { deps, stores, clientId } = journeysHarness();
    await createJourney(deps, clientId, { name: 'Cart', definition: asDraft(cartDefinition()) });

    // Act
    const saved = await saveDraft(deps, clientId, 1000, { draft_version: 1, definition: { steps: [] } });
    const stale = await saveDraft(deps, clientId, 1000, { draft_version: 1, definition: {} }).catch((e: AppError) => e);

    // Assess
    expect(saved.draft_version).toBe(2);
    expect(saved.issues.length).toBeGreaterThan(0);
    expect(stale).toMatchObject({ status: 409, items: [{ condition: 'state', key: 'draft_version' }] });
    expect((await stores.journeys.get(clientId, 1000))?.draft).toEqual({ steps: [] });
  });

  it('refuses writes on a system journey with 422 read_only', async () => {
    // Prepare
    const { deps, clientId } = journeysHarness();

    // Act
    const draft = await saveDraft(deps, clientId, 2, { draft_version: 1, definition: {} }).catch((e: AppError) => e);
    const rename = await updateJourney(deps, clientId, 2, { name: 'x' }).catch((e: AppError) => e);

    // Assess
    expect(draft).toMatchObject({ status: 422, items: [{ condition: 'read_only', key: 'definition' }] });
    expect(rename).toMatchObject({ status: 422, items: [{ condition: 'read_only', key: 'name' }] });
  });
});
