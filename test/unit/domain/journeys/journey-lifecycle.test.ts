import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../../shared/errors.js';
import { createJourney } from '../../../../shared/domain/journeys/create-journey.js';
import { changeJourneyStatus, deleteJourney } from '../../../../shared/domain/journeys/journey-lifecycle.js';
import { publishJourney } from '../../../../shared/domain/journeys/publish-journey.js';
import { asDraft, cartDefinition, journeysHarness } from './journeys-harness.js';

const published = async () => {
  const h = journeysHarness();
  await createJourney(h.deps, h.clientId, { name: 'Cart', definition: asDraft(cartDefinition()) });
  await publishJourney(h.deps, { clientId: h.clientId }, 1000, { draft_version: 1 });
  return h;
};

describe('changeJourneyStatus', () => {
  it.each([
    ['pause', 'live', 'paused'],
    ['archive', 'live', 'archived'],
  ] as const)('%s moves a %s journey to %s with its index entry', async (action, _from, to) => {
    // Prepare
    const { deps, stores, clientId } = await published();

    // Act
    const view = await changeJourneyStatus(deps, clientId, 1000, action);

    // Assess
    expect(view.status).toBe(to);
    const entries = stores.journeys.indexOf(clientId)?.journeys ?? [];
    expect(entries).toEqual(to === 'archived' ? [] : [expect.objectContaining({ id: 1000, status: to })]);
  });

  it.each([
    ['resume', 'a live journey'],
    ['pause', 'a draft'],
  ] as const)('refuses to %s %s with 409 state', async (action, what) => {
    // Prepare
    const h = what === 'a draft' ? journeysHarness() : await published();
    if (what === 'a draft') await createJourney(h.deps, h.clientId, { name: 'Draft' });

    // Act
    const error = await changeJourneyStatus(h.deps, h.clientId, 1000, action).catch((e: AppError) => e);

    // Assess
    expect(error).toMatchObject({ status: 409, items: [{ condition: 'state' }] });
  });

  it('refuses the lifecycle of a system journey with 409 state, naming enabled_workflows', async () => {
    // Prepare
    const { deps, clientId } = journeysHarness();

    // Act
    const error = await changeJourneyStatus(deps, clientId, 4, 'pause').catch((e: AppError) => e);

    // Assess
    expect(error).toMatchObject({ status: 409, items: [{ condition: 'state', key: 'id' }] });
    expect((error as AppError).items[0]?.error).toContain('enabled_workflows');
  });
});

describe('deleteJourney', () => {
  it('deletes a draft and frees its place, but not a journey ever published', async () => {
    // Prepare
    const { deps, stores, clientId } = await published();
    await createJourney(deps, clientId, { name: 'Draft' });

    // Act
    const refused = await deleteJourney(deps, clientId, 1000).catch((e: AppError) => e);
    const deleted = await deleteJourney(deps, clientId, 1001);

    // Assess
    expect(refused).toMatchObject({ status: 409, items: [{ condition: 'state' }] });
    expect(deleted).toEqual({ id: 1001, name: 'Draft', deleted: true });
    expect((await stores.journeys.list(clientId)).n).toBe(1);
  });
});
