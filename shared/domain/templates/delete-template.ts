import { conflict, notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import type { JourneyStore } from '../journeys/journey-store.js';
import { WORKFLOW_IDS } from '../workflows/catalog.js';
import { findTemplate } from './get-template.js';
import type { TemplateStore } from './template-store.js';
import { refuseSystemTemplate } from './refuse-system-template.js';
import { toTemplateView, type TemplateView } from './template-view.js';

/** A publish changed the journey index between its read and the delete: read it again. */
const MAX_ATTEMPTS = 4;

/**
 * DELETE /client/email-templates/{id}: soft deletion (deleted_at is set; the template stays readable by id for the
 * history of sent e-mails). A template a workflow customization uses, or a send step of a live or paused journey
 * (the journey index's templates_in_use), cannot be deleted (409) — activate another one, or publish the journey
 * without it, first. Deleting a workflow's clone lets clone-template make a fresh copy. The journey index is read
 * beside the template (one wave) and the delete is conditioned on its version, so a journey published meanwhile is
 * seen.
 */
export async function deleteTemplate(
  deps: { clock: Clock; templates: TemplateStore; journeys: Pick<JourneyStore, 'index'> },
  clientId: number,
  templateId: number,
): Promise<TemplateView> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const [template, index] = await Promise.all([
      findTemplate(deps, clientId, templateId),
      deps.journeys.index(clientId),
    ]);
    refuseSystemTemplate(template);
    const journey = index.journeys.find((j) => j.templates_in_use.includes(template.id));
    if (journey) {
      throw conflict(
        'state',
        'id',
        `Journey ${journey.id} (${journey.name}, ${journey.status}) sends this template; publish it without the template or archive it first`,
      );
    }
    const outcome = await deps.templates.softDelete(
      template,
      WORKFLOW_IDS,
      deps.clock.now().toISOString(),
      index.version,
    );
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
      case 'journeys_changed':
        continue;
    }
  }
  throw conflict('state', 'id', 'The journeys changed while the template was being deleted; retry');
}
