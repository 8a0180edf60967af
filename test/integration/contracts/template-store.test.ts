import { describe, expect, it } from 'vitest';
import { AT, freshClientId, LATER, STORE_ADAPTERS } from './support.js';
import { audit, clientTemplate } from './workflow-fixtures.js';

describe.each(STORE_ADAPTERS)('TemplateStore contract (%s)', (_name, makeStores) => {
  it('stores client templates, read one by one, several at once, and listed per client', async () => {
    // Prepare
    const { templates } = makeStores();
    const clientId = freshClientId();
    const [a, b] = [clientTemplate(clientId), clientTemplate(clientId)];
    const foreign = clientTemplate(freshClientId());

    // Act
    await Promise.all([templates.create(a), templates.create(b), templates.create(foreign)]);

    // Assess
    expect(await templates.get(clientId, a.id)).toEqual(a);
    expect(await templates.get(clientId, foreign.id)).toBeUndefined();
    expect((await templates.getMany(clientId, [b.id, a.id, foreign.id, 1])).sort((x, y) => x.id - y.id)).toEqual([
      a,
      b,
    ]);
    const summary = ({ html_body: _h, text_body: _t, ...rest }: typeof a) => rest;
    const [low, high] = [a, b].sort((x, y) => x.id - y.id) as [typeof a, typeof a];
    expect(await templates.listSummaries(clientId, { limit: 10, afterId: 0 })).toEqual({
      templates: [summary(low), summary(high)],
      more: false,
    });
    // A page at a time, without the bodies: at most `limit`, from after a position.
    expect(await templates.listSummaries(clientId, { limit: 1, afterId: 0 })).toEqual({
      templates: [summary(low)],
      more: true,
    });
    expect(await templates.listSummaries(clientId, { limit: 1, afterId: low.id })).toEqual({
      templates: [summary(high)],
      more: false,
    });
  });

  it('refuses a second template with the same id', async () => {
    const { templates } = makeStores();
    const t = clientTemplate(freshClientId());
    await templates.create(t);

    await expect(templates.create({ ...t, name: 'Other' })).rejects.toThrow();
    expect((await templates.get(t.client_id, t.id))?.name).toBe(t.name);
  });

  it('updates only a live template', async () => {
    // Prepare
    const { templates } = makeStores();
    const t = clientTemplate(freshClientId());
    await templates.create(t);

    // Act
    const updated = await templates.update(t.client_id, t.id, { subject: 'New', name: undefined }, LATER);

    // Assess
    expect(updated).toEqual({ ...t, subject: 'New', updated_at: LATER });
    expect(await templates.update(t.client_id, 999_999, { subject: 'x' }, LATER)).toBeUndefined();
    await templates.softDelete(t, [], LATER);
    expect(await templates.update(t.client_id, t.id, { subject: 'x' }, LATER)).toBeUndefined();
  });

  it('soft-deletes a template: kept (listed, readable) with deleted_at; a second delete finds it missing', async () => {
    const { templates } = makeStores();
    const t = clientTemplate(freshClientId());
    await templates.create(t);

    const outcome = await templates.softDelete(t, [1, 2], LATER);

    expect(outcome).toEqual({ kind: 'deleted', template: { ...t, deleted_at: LATER, updated_at: LATER } });
    expect(await templates.get(t.client_id, t.id)).toEqual({ ...t, deleted_at: LATER, updated_at: LATER });
    expect((await templates.listSummaries(t.client_id, { limit: 10, afterId: 0 })).templates).toHaveLength(1);
    expect(await templates.softDelete(t, [], LATER)).toEqual({ kind: 'missing' });
  });

  it('refuses to delete a template a workflow customization uses, and changes nothing', async () => {
    // Prepare
    const { templates, customizations } = makeStores();
    const clientId = freshClientId();
    const t = clientTemplate(clientId);
    await templates.create(t);
    await customizations.save({
      clientId,
      workflowId: 3,
      overrides: { template_id: t.id },
      expectedVersion: undefined,
      audit: audit(3, AT, 'a1'),
      requireTemplateId: t.id,
      at: AT,
    });

    // Act
    const outcome = await templates.softDelete(t, [1, 3], LATER);

    // Assess
    expect(outcome).toEqual({ kind: 'in_use', workflowId: 3 });
    expect(await templates.get(clientId, t.id)).toEqual(t);
  });

  it('releases the clone marker of the workflow a deleted clone was made for', async () => {
    // Prepare
    const { templates, customizations } = makeStores();
    const clientId = freshClientId();
    const clone = clientTemplate(clientId, { source_workflow_id: 2, source_template_id: 2 });
    await customizations.createClone(clientId, 2, clone);

    // Act
    await templates.softDelete(clone, [1, 2, 3], LATER);

    // Assess
    expect((await customizations.get(clientId, 2))?.clone_template_id).toBeUndefined();
    expect(await customizations.createClone(clientId, 2, clientTemplate(clientId, { source_workflow_id: 2 }))).toEqual({
      created: true,
    });
  });
});
