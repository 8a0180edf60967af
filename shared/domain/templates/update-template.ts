import { forbidden, notFound } from '../../errors.js';
import type { Clock } from '../../ports.js';
import { findTemplate } from './get-template.js';
import type { TemplatePatch } from './schemas.js';
import { assertSafeTemplates } from './template-safety.js';
import { isSystemTemplateId, TEMPLATE_TYPES, type TemplateRecord, type TemplateStore } from './template-store.js';
import { toTemplateView, type TemplateView } from './template-view.js';

/** 403 for a system template the client can see but never change. */
export function refuseSystemTemplate(template: TemplateRecord): void {
  if (template.type === TEMPLATE_TYPES.system) {
    throw forbidden(
      'id',
      'System templates are read-only; copy one with POST /client/workflows/{workflow_id}/clone-template and edit the copy',
    );
  }
}

/**
 * PATCH /client/email-templates/{id}: any subset of the content of a live client template. One conditional
 * UpdateItem (missing, deleted or another client's → 404); system templates are refused without a read.
 */
export async function updateTemplate(
  deps: { clock: Clock; templates: TemplateStore },
  clientId: number,
  templateId: number,
  patch: TemplatePatch,
): Promise<TemplateView> {
  if (isSystemTemplateId(templateId)) refuseSystemTemplate(await findTemplate(deps, clientId, templateId));
  assertSafeTemplates({ subject: patch.subject, preview_text: patch.preview_text, html_body: patch.html_body, text_body: patch.text_body });
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as TemplatePatch;
  if (Object.keys(changes).length === 0) return toTemplateView(await findTemplate(deps, clientId, templateId));
  const updated = templateId > 0 ? await deps.templates.update(clientId, templateId, changes, deps.clock.now().toISOString()) : undefined;
  if (!updated) throw notFound('id', 'Template not found');
  return toTemplateView(updated);
}
