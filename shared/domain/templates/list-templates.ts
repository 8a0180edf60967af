import { pageMetaOf, type PageMeta } from '../pagination/page-meta.js';
import type { TemplateListBody } from './schemas.js';
import { SYSTEM_TEMPLATES } from './system-templates.js';
import type { TemplateStore } from './template-store.js';
import { toTemplateView, type TemplateView } from './template-view.js';

export interface TemplatePage {
  templates: TemplateView[];
  meta: PageMeta;
}

/**
 * POST /client/email-templates/list: the system templates and the client's live templates (soft-deleted ones too
 * with `include_deleted`), by id (system first), filtered by `type` and by `q` (case-insensitive substring of name
 * or subject).
 */
export async function listTemplates(
  deps: { templates: TemplateStore },
  clientId: number,
  filter: TemplateListBody,
): Promise<TemplatePage> {
  const own = filter.type === 1 ? [] : (await deps.templates.list(clientId)).filter((t) => filter.include_deleted || !t.deleted_at);
  const q = filter.q?.toLowerCase();
  const all = [...(filter.type === 2 ? [] : SYSTEM_TEMPLATES), ...own]
    .filter((t) => !q || t.name.toLowerCase().includes(q) || t.subject.toLowerCase().includes(q))
    .sort((a, b) => a.id - b.id);
  const start = (filter.page - 1) * filter.per_page;
  return {
    templates: all.slice(start, start + filter.per_page).map(toTemplateView),
    meta: pageMetaOf(filter.page, filter.per_page, all.length),
  };
}
