import { notFound } from '../../errors.js';
import { findSystemTemplate } from './system-templates.js';
import { isSystemTemplateId, type TemplateRecord, type TemplateStore } from './template-store.js';

/**
 * A template the client may see: a system template (from code) or one of its own. Another client's template is
 * answered exactly like a missing one. Soft-deleted templates are visible only with `includeDeleted` (GET and list
 * with `include_deleted=true`, for history); otherwise, and always for using or editing one, they are a 404.
 */
export async function findTemplate(
  deps: { templates: TemplateStore },
  clientId: number,
  templateId: number,
  options: { includeDeleted?: boolean; key?: string } = {},
): Promise<TemplateRecord> {
  const key = options.key ?? 'id';
  const template = isSystemTemplateId(templateId)
    ? findSystemTemplate(templateId)
    : templateId > 0
      ? await deps.templates.get(clientId, templateId)
      : undefined;
  if (!template || (template.deleted_at && !options.includeDeleted)) throw notFound(key, 'Template not found');
  return template;
}
