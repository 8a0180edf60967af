import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../../shared/errors.js';
import { createJourney } from '../../../../shared/domain/journeys/create-journey.js';
import { moveProblems, publishJourney } from '../../../../shared/domain/journeys/publish-journey.js';
import { saveDraft } from '../../../../shared/domain/journeys/edit-journey.js';
import type { JourneyDefinition, WaitForEventStep } from '../../../../shared/domain/journeys/definition/types.js';
import { asDraft, cartDefinition, journeysHarness } from './journeys-harness.js';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: AppError) => error,
  );

const withoutRemind = (): JourneyDefinition => ({
  ...cartDefinition(),
  steps: [
    { ...(cartDefinition().steps[0] as WaitForEventStep), on_timeout: 'nudge' },
    { id: 'nudge', type: 'send', template_id: 2, send_time: { mode: 0 }, next: null },
  ],
});

describe('moveProblems', () => {
  it.each([
    ['a removed step without a move', {}, [{ condition: 'required', key: 'moves.remind' }]],
    [
      'a move_to a step the new version lacks',
      { remind: { action: 'move_to', step_id: 'remind' } },
      [{ condition: 'reference', key: 'moves.remind.step_id' }],
    ],
    [
      'a move for a step not removed',
      { remind: { action: 'end' }, wait_checkout: { action: 'end' } },
      [{ condition: 'reference', key: 'moves.wait_checkout' }],
    ],
    ['a move for each removed step', { remind: { action: 'move_to', step_id: 'nudge' } }, []],
  ] as const)('reports %s', (_case, moves, expected) => {
    // Act
    const problems = moveProblems(cartDefinition(), withoutRemind(), moves);

    // Assess
    expect(problems).toEqual(expected.map((e) => expect.objectContaining(e)));
  });

  it('asks nothing of a first publish', () => {
    expect(moveProblems(undefined, cartDefinition(), {})).toEqual([]);
  });
});

describe('publishJourney', () => {
  it('publishes version 1, indexes the journey and keeps the draft_version', async () => {
    // Prepare
    const { deps, stores, clientId } = journeysHarness();
    await createJourney(deps, clientId, { name: 'Cart', definition: asDraft(cartDefinition()) });

    // Act
    const version = await publishJourney(deps, { clientId, userId: 4 }, 1000, { draft_version: 1 });

    // Assess
    expect(version).toMatchObject({ journey_id: 1000, version: 1, moves: {}, published_by: 4 });
    expect(stores.journeys.indexOf(clientId)?.journeys).toEqual([
      expect.objectContaining({
        id: 1000,
        status: 'live',
        awaited_events: ['checkout_completed'],
        templates_in_use: [3],
      }),
    ]);
    expect(await stores.journeys.get(clientId, 1000)).toMatchObject({
      status: 'live',
      live_version: 1,
      draft_version: 1,
    });
  });

  it('reports every problem at once with its path, and writes nothing', async () => {
    // Prepare
    const { deps, stores, clientId } = journeysHarness();
    const broken = { ...cartDefinition(), entry: 'nowhere', settings: { ...cartDefinition().settings, topic_id: 99 } };
    await createJourney(deps, clientId, { name: 'Cart', definition: asDraft(broken) });

    // Act
    const error = await refusal(publishJourney(deps, { clientId }, 1000, { draft_version: 1 }));

    // Assess
    expect(error?.status).toBe(422);
    expect(error?.items.map((i) => i.key)).toEqual(
      expect.arrayContaining(['definition.entry', 'definition.settings.topic_id']),
    );
    expect(stores.journeys.indexOf(clientId)).toBeUndefined();
  });

  it('asks a move for each step the draft removes from the live version', async () => {
    // Prepare
    const { deps, clientId } = journeysHarness();
    await createJourney(deps, clientId, { name: 'Cart', definition: asDraft(cartDefinition()) });
    await publishJourney(deps, { clientId }, 1000, { draft_version: 1 });
    await saveDraft(deps, clientId, 1000, { draft_version: 1, definition: asDraft(withoutRemind()) });

    // Act
    const refused = await refusal(publishJourney(deps, { clientId }, 1000, { draft_version: 2 }));
    const v2 = await publishJourney(deps, { clientId }, 1000, {
      draft_version: 2,
      moves: { remind: { action: 'finish_old' } },
    });

    // Assess
    expect(refused?.items).toEqual([expect.objectContaining({ condition: 'required', key: 'moves.remind' })]);
    expect(v2).toMatchObject({ version: 2, moves: { remind: { action: 'finish_old' } } });
  });

  it('refuses a stale draft_version with 409 state', async () => {
    // Prepare
    const { deps, clientId } = journeysHarness();
    await createJourney(deps, clientId, { name: 'Cart', definition: asDraft(cartDefinition()) });

    // Act
    const error = await refusal(publishJourney(deps, { clientId }, 1000, { draft_version: 2 }));

    // Assess
    expect([error?.status, error?.items[0]?.key]).toEqual([409, 'draft_version']);
  });

  it('disables the source workflow of a copy in the same write, and only when asked', async () => {
    // Prepare
    const { deps, stores, clientId } = journeysHarness();
    await createJourney(deps, clientId, { name: 'Welcome', copy_of: 1 });

    // Act
    const refused = await refusal(publishJourney(deps, { clientId }, 1000, { draft_version: 1 }));
    const settingsBefore = stores.settings.settings.get(clientId);
    await publishJourney(deps, { clientId }, 1000, { draft_version: 1, disable_source_workflow: true });

    // Assess
    expect([refused?.status, refused?.items[0]?.key]).toEqual([409, 'disable_source_workflow']);
    expect(settingsBefore).toBeUndefined();
    // The starter plan's default set without workflow 1.
    expect(stores.settings.settings.get(clientId)?.enabled_workflows).not.toContain(1);
    expect(stores.settings.settings.get(clientId)?.enabled_workflows?.length).toBeGreaterThan(0);
  });
});
