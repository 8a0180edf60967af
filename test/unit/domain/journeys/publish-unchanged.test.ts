import { describe, expect, it } from 'vitest';
import { createJourney } from '../../../../shared/domain/journeys/create-journey.js';
import { saveDraft } from '../../../../shared/domain/journeys/edit-journey.js';
import { publishDraft } from '../../../../shared/domain/journeys/publish-journey.js';
import { asDraft, cartDefinition, journeysHarness } from './journeys-harness.js';

describe('publishDraft of a draft that is the live version', () => {
  it('answers the live version unchanged and writes nothing, in any key order', async () => {
    // Prepare
    const { deps, stores, clientId } = journeysHarness();
    await createJourney(deps, clientId, { name: 'Cart', definition: asDraft(cartDefinition()) });
    const first = await publishDraft(deps, { clientId }, 1000, { draft_version: 1 });
    const { settings, steps, ...rest } = cartDefinition();
    await saveDraft(deps, clientId, 1000, { draft_version: 1, definition: asDraft({ settings, ...rest, steps }) });
    const before = structuredClone(await stores.journeys.get(clientId, 1000));
    const indexBefore = structuredClone(stores.journeys.indexOf(clientId));

    // Act
    const again = await publishDraft(deps, { clientId, userId: 9 }, 1000, { draft_version: 2 });

    // Assess
    expect(first.outcome).toBe('published');
    expect(again).toEqual({ version: first.version, outcome: 'unchanged' });
    expect(await stores.journeys.get(clientId, 1000)).toEqual(before);
    expect(stores.journeys.indexOf(clientId)).toEqual(indexBefore);
    expect(await stores.journeys.version(clientId, 1000, 2)).toBeUndefined();
  });

  it('publishes a draft that differs by one value as the next version', async () => {
    // Prepare
    const { deps, clientId } = journeysHarness();
    await createJourney(deps, clientId, { name: 'Cart', definition: asDraft(cartDefinition()) });
    await publishDraft(deps, { clientId }, 1000, { draft_version: 1 });
    const changed = { ...cartDefinition(), settings: { ...cartDefinition().settings, conversion_window_days: 3 } };
    await saveDraft(deps, clientId, 1000, { draft_version: 1, definition: asDraft(changed) });

    // Act
    const next = await publishDraft(deps, { clientId }, 1000, { draft_version: 2 });

    // Assess
    expect(next.outcome).toBe('published');
    expect(next.version.version).toBe(2);
  });
});
