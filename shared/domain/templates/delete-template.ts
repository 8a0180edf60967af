import { conflict, notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { WORKFLOW_IDS } from '../workflows/catalog.js';
import { findTemplate } from './get-template.js';
import type { TemplateStore } from './template-store.js';
import { refuseSystemTemplate } from './refuse-system-template.js';
import { toTemplateView, type TemplateView } from './template-view.js';

/**
 * DELETE /client/email-templates/{id}: soft deletion (deleted_at is set; the template stays readable by id for the
 * history of sent e-mails). A template a workflow customization uses cannot be deleted (409) — activate another
 * one first. Deleting a workflow's clone lets clone-template make a fresh copy.
 */
export async function deleteTemplate(
  deps: { clock: Clock; templates: TemplateStore },
  clientId: number,
  templateId: number,
): Promise<TemplateView> {
  const template = await findTemplate(deps, clientId, templateId);
  refuseSystemTemplate(template);
  const outcome = await deps.templates.softDelete(template, WORKFLOW_IDS, deps.clock.now().toISOString());
  switch (outcome.kind) {
    case 'deleted':
      return toTemplateView(outcome.template);
    case 'missing':
      throw notFound('id', 'Template not found');
    case 'in_use':
      throw conflict(
        'state',
        'id',
        `Workflow ${outcome.workflowId} uses this template; activate another one with PATCH /client/workflows/${outcome.workflowId}/customization first`,
      );
  }
}
