import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../../shared/errors.js';
import { createJourney, skeletonDraft } from '../../../../shared/domain/journeys/create-journey.js';
import { validateJourney } from '../../../../shared/domain/journeys/definition/validate-journey.js';
import { asDraft, cartDefinition, journeysHarness } from './journeys-harness.js';

describe('createJourney', () => {
  it('starts from a skeleton whose only issues are the trigger event and the template', () => {
    // Act
    const { issues } = validateJourney(skeletonDraft(), {
      templateIds: new Set([3]),
      topicIds: new Set(),
      segmentIds: new Set(),
    });

    // Assess
    expect(issues.map((i) => i.path).sort()).toEqual(['steps.0.template_id', 'trigger.event']);
  });

  it("refuses a journey beyond the plan's limit with 409 max", async () => {
    // Prepare
    const { deps, clientId } = journeysHarness('free');
    await createJourney(deps, clientId, { name: 'One' });

    // Act
    const error = await createJourney(deps, clientId, { name: 'Two' }).catch((e: AppError) => e);

    // Assess
    expect(error).toMatchObject({ status: 409, items: [{ condition: 'max', key: 'journeys' }] });
  });

  it('refuses a definition larger than 64 KB with 422 max', async () => {
    // Prepare
    const { deps, clientId } = journeysHarness();
    const big = { ...cartDefinition(), pad: 'x'.repeat(70_000) };

    // Act
    const error = await createJourney(deps, clientId, { name: 'Big', definition: asDraft(big) }).catch(
      (e: AppError) => e,
    );

    // Assess
    expect(error).toMatchObject({ status: 422, items: [{ condition: 'max', key: 'definition' }] });
  });

  it("copies a system journey as the client customized it, and answers another client's id with 404", async () => {
    // Prepare
    const { deps, clientId } = journeysHarness();
    await deps.customizations.save({
      clientId,
      workflowId: 3,
      overrides: { delay_minutes: 90 },
      expectedVersion: undefined,
      audit: { workflow_id: 3, changed_at: '2026-01-01T00:00:00.000Z', changes: {} } as never,
      at: '2026-01-01T00:00:00.000Z',
    });

    // Act
    const copy = await createJourney(deps, clientId, { name: 'Trial', copy_of: 3 });
    const missing = await createJourney(deps, clientId, { name: 'x', copy_of: 1001 }).catch((e: AppError) => e);

    // Assess
    expect(copy).toMatchObject({ id: 1000, copied_from: 3, issues: [] });
    expect(JSON.stringify(copy.draft)).toContain('90');
    expect(missing).toMatchObject({ status: 404, items: [{ key: 'copy_of' }] });
  });
});
