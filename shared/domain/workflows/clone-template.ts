import * as z from '../../validation/zod.js';
import type { Clock, Ids } from '../../platform.js';
import { nextClientTemplateId } from '../templates/create-template.js';
import { findSystemTemplate } from '../templates/system-templates.js';
import { assertSavableTemplate } from '../templates/template-save-check.js';
import { TEMPLATE_TYPES, type TemplateRecord, type TemplateStore } from '../templates/template-store.js';
import { TemplateView, toTemplateView } from '../templates/template-view.js';
import type { WorkflowCustomizationStore } from './customization-store.js';
import { requireWorkflow } from './update-customization.js';

interface Deps {
  clock: Clock;
  ids: Ids;
  templates: TemplateStore;
  customizations: WorkflowCustomizationStore;
}

/**
 * The answer of clone-template (OpenAPI `ClonedTemplate`): the client's copy, with the ids SPEC.md names.
 * TemplateView's shape, not `z.extend(TemplateView, …)`: in zod/mini `.meta` is a check, and extend keeps checks, so
 * the copy would also be registered as `EmailTemplate` (classic's `.extend` drops the metadata).
 */
export const ClonedTemplate = z
  .object({
    ...TemplateView.shape,
    template_id: z
      .int()
      .check(z.gte(1), z.meta({ description: "The copy's id (as `id`): activate it with PATCH …/customization" })),
    workflow_id: z.int().check(z.gte(1)),
  })
  .check(z.meta({ id: 'ClonedTemplate', description: "A client-owned copy of a workflow's system template." }));
export type ClonedTemplate = z.output<typeof ClonedTemplate>;

const cloneView = (template: TemplateRecord, workflowId: number): ClonedTemplate => ({
  template_id: template.id,
  workflow_id: workflowId,
  ...toTemplateView(template),
});

/**
 * POST /client/workflows/{workflow_id}/clone-template: a client copy (type 2) of the workflow's default system
 * template. Idempotent: the copy and the workflow's clone marker are written in one transaction conditioned on
 * the marker being absent, so concurrent calls create exactly one copy and the others return it.
 */
export async function cloneWorkflowTemplate(
  deps: Deps,
  clientId: number,
  workflowId: number,
): Promise<{ created: boolean; template: ClonedTemplate }> {
  const workflow = requireWorkflow(workflowId);
  const existing = await existingClone(deps, clientId, workflowId);
  if (existing) return { created: false, template: cloneView(existing, workflowId) };

  const source = findSystemTemplate(workflow.default_template_id);
  if (!source) throw new Error(`workflow ${workflowId} has no system template ${workflow.default_template_id}`);
  // Stored content passes the save check whatever its source (system templates pass it: their test says so).
  assertSavableTemplate({
    subject: source.subject,
    preview_text: source.preview_text,
    html_body: source.html_body,
    text_body: source.text_body,
  });
  const now = deps.clock.now().toISOString();
  const copy: TemplateRecord = {
    id: await nextClientTemplateId(deps.ids),
    client_id: clientId,
    type: TEMPLATE_TYPES.client,
    name: `${source.name} (copy)`,
    subject: source.subject,
    preview_text: source.preview_text,
    html_body: source.html_body,
    text_body: source.text_body,
    source_template_id: source.id,
    source_template: { id: source.id, name: source.name, subject: source.subject, updated_at: source.updated_at },
    source_workflow_id: workflowId,
    created_at: now,
    updated_at: now,
  };
  const outcome = await deps.customizations.createClone(clientId, workflowId, copy);
  if (outcome.created) return { created: true, template: cloneView(copy, workflowId) };
  const winner = await deps.templates.get(clientId, outcome.existingTemplateId);
  if (!winner)
    throw new Error(`clone marker of workflow ${workflowId} points at missing template ${outcome.existingTemplateId}`);
  return { created: false, template: cloneView(winner, workflowId) };
}

async function existingClone(deps: Deps, clientId: number, workflowId: number): Promise<TemplateRecord | undefined> {
  const marker = (await deps.customizations.get(clientId, workflowId))?.clone_template_id;
  if (marker === undefined) return undefined;
  const template = await deps.templates.get(clientId, marker);
  return template && !template.deleted_at ? template : undefined;
}
