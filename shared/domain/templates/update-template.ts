import { notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { findTemplate } from './get-template.js';
import { refuseSystemTemplate } from './refuse-system-template.js';
import type { TemplatePatch } from './schemas.js';
import { assertSavableTemplate } from './template-save-check.js';
import { isSystemTemplateId, type TemplateStore } from './template-store.js';
import { toTemplateView, type TemplateView } from './template-view.js';

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
  assertSavableTemplate({
    subject: patch.subject,
    preview_text: patch.preview_text,
    html_body: patch.html_body,
    text_body: patch.text_body,
  });
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as TemplatePatch;
  if (Object.keys(changes).length === 0) return toTemplateView(await findTemplate(deps, clientId, templateId));
  const updated =
    templateId > 0
      ? await deps.templates.update(clientId, templateId, changes, deps.clock.now().toISOString())
      : undefined;
  if (!updated) throw notFound('id', 'Template not found');
  return toTemplateView(updated);
}
