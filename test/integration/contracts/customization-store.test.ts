import { describe, expect, it } from 'vitest';
import { AT, freshClientId, LATER, STORE_ADAPTERS } from './support.js';
import { audit, clientTemplate } from './workflow-fixtures.js';

describe.each(STORE_ADAPTERS)('WorkflowCustomizationStore contract (%s)', (_name, makeStores) => {
  it('saves the first overrides (version 1) with their audit record', async () => {
    // Prepare
    const { customizations } = makeStores();
    const clientId = freshClientId();

    // Act
    const outcome = await customizations.save({
      clientId,
      workflowId: 4,
      overrides: { delay_minutes: 30, priority_score: 80 },
      expectedVersion: undefined,
      audit: audit(4, AT, 'a1'),
      at: AT,
    });

    // Assess
    expect(outcome).toBe('saved');
    expect(await customizations.get(clientId, 4)).toEqual({
      workflow_id: 4,
      delay_minutes: 30,
      priority_score: 80,
      version: 1,
      updated_at: AT,
    });
    expect(await customizations.listAudit(clientId, 4, { limit: 10 })).toEqual({
      entries: [audit(4, AT, 'a1')],
      more: false,
    });
    expect(await customizations.get(freshClientId(), 4)).toBeUndefined();
  });

  it('replaces the overrides over the version read (absent fields removed), and refuses a stale version', async () => {
    // Prepare
    const { customizations } = makeStores();
    const clientId = freshClientId();
    const change = { clientId, workflowId: 4, expectedVersion: undefined, at: AT };
    await customizations.save({
      ...change,
      overrides: { delay_minutes: 30, priority_score: 80 },
      audit: audit(4, AT, 'a1'),
    });

    // Act
    const saved = await customizations.save({
      ...change,
      expectedVersion: 1,
      overrides: { priority_score: 10 },
      audit: audit(4, LATER, 'a2'),
      at: LATER,
    });
    const stale = await customizations.save({
      ...change,
      expectedVersion: 1,
      overrides: {},
      audit: audit(4, LATER, 'a3'),
      at: LATER,
    });
    const again = await customizations.save({ ...change, overrides: {}, audit: audit(4, LATER, 'a4'), at: LATER });

    // Assess
    expect([saved, stale, again]).toEqual(['saved', 'version_conflict', 'version_conflict']);
    expect(await customizations.get(clientId, 4)).toEqual({
      workflow_id: 4,
      priority_score: 10,
      version: 2,
      updated_at: LATER,
    });
    expect((await customizations.listAudit(clientId, 4, { limit: 10 })).entries.map((a) => a.id)).toEqual(['a2', 'a1']);
  });

  it('reads the audit trail a page at a time: at most `limit` records, newest first, from a position', async () => {
    // Prepare
    const { customizations } = makeStores();
    const clientId = freshClientId();
    const change = { clientId, workflowId: 4, at: AT };
    const times = ['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:03.000Z'];
    for (const [i, at] of times.entries()) {
      await customizations.save({
        ...change,
        expectedVersion: i === 0 ? undefined : i,
        overrides: { delay_minutes: i },
        audit: audit(4, at, `a${i}`),
        at,
      });
    }

    // Act
    const first = await customizations.listAudit(clientId, 4, { limit: 2 });
    const rest = await customizations.listAudit(clientId, 4, { limit: 2, after: first.entries[1]! });
    const whole = await customizations.listAudit(clientId, 4, { limit: 3 });

    // Assess
    expect(first.entries.map((a) => a.id)).toEqual(['a2', 'a1']);
    expect(first.more).toBe(true);
    expect(rest).toEqual({ entries: [audit(4, times[0]!, 'a0')], more: false });
    expect(whole.more).toBe(false);
  });

  it('refuses overrides pointing at a missing or deleted client template, writing nothing', async () => {
    // Prepare
    const { customizations, templates } = makeStores();
    const clientId = freshClientId();
    const deleted = clientTemplate(clientId);
    await templates.create(deleted);
    await templates.softDelete(deleted, [], AT);
    const change = { clientId, workflowId: 5, expectedVersion: undefined, audit: audit(5, AT, 'a1'), at: AT };

    // Act + Assess
    expect(
      await customizations.save({ ...change, overrides: { template_id: 999_999 }, requireTemplateId: 999_999 }),
    ).toBe('template_missing');
    expect(
      await customizations.save({ ...change, overrides: { template_id: deleted.id }, requireTemplateId: deleted.id }),
    ).toBe('template_missing');
    expect(await customizations.get(clientId, 5)).toBeUndefined();
    expect(await customizations.listAudit(clientId, 5, { limit: 10 })).toEqual({ entries: [], more: false });
  });

  it('creates one clone per workflow: the second asks get the first copy', async () => {
    // Prepare
    const { customizations, templates } = makeStores();
    const clientId = freshClientId();
    const first = clientTemplate(clientId, { source_workflow_id: 6 });
    const second = clientTemplate(clientId, { source_workflow_id: 6 });

    // Act
    const outcomes = [
      await customizations.createClone(clientId, 6, first),
      await customizations.createClone(clientId, 6, second),
    ];

    // Assess
    expect(outcomes).toEqual([{ created: true }, { created: false, existingTemplateId: first.id }]);
    expect(await templates.get(clientId, first.id)).toEqual(first);
    expect(await templates.get(clientId, second.id)).toBeUndefined();
    expect(await customizations.get(clientId, 6)).toEqual({ workflow_id: 6, clone_template_id: first.id });
  });

  it('reads the customizations that exist among several workflows at once', async () => {
    const { customizations } = makeStores();
    const clientId = freshClientId();
    const change = { clientId, expectedVersion: undefined, at: AT };
    await customizations.save({ ...change, workflowId: 1, overrides: { delay_minutes: 5 }, audit: audit(1, AT, 'a1') });
    await customizations.save({ ...change, workflowId: 3, overrides: { delay_minutes: 7 }, audit: audit(3, AT, 'a2') });

    const found = await customizations.getMany(clientId, [1, 2, 3]);

    expect(found.map((c) => [c.workflow_id, c.delay_minutes]).sort()).toEqual([
      [1, 5],
      [3, 7],
    ]);
  });
});
