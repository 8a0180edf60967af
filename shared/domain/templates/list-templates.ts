import { createHash } from 'node:crypto';
import { invalidField } from '../../errors.js';
import { boundedPageMetaOf, TOTAL_LOOKAHEAD, type BoundedPageMeta } from '../pagination/bounded-page.js';
import { positionCursor } from '../pagination/position-cursor.js';
import type { TemplateListBody } from './schemas.js';
import { SYSTEM_TEMPLATES } from './system-templates.js';
import type { TemplateStore, TemplateSummary } from './template-store.js';
import { toTemplateSummaryView, type TemplateSummaryView } from './template-view.js';

export interface TemplatePage {
  templates: TemplateSummaryView[];
  next_cursor: string | null;
  meta: BoundedPageMeta;
}

/** A cursor's position: the last template id it has passed (system ids are below every client id). */
const cursors = positionCursor<number>(
  'template-list-cursor:v1:',
  (v): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0,
);

/** The filters a cursor belongs to. */
const scopeOf = (filter: TemplateListBody): string =>
  createHash('sha256')
    .update(JSON.stringify([filter.q?.toLowerCase() ?? null, filter.type ?? null, filter.include_deleted]))
    .digest('base64url')
    .slice(0, 16);

/**
 * POST /client/email-templates/list: the system templates and the client's live templates (soft-deleted ones too
 * with `include_deleted`), by id (system first), filtered by `type` and by `q` (case-insensitive substring of name
 * or subject), without their bodies. The client's templates are read by ascending id, only as far as the page needs:
 * a numbered page up to TOTAL_LOOKAHEAD templates past it (page × per_page ≤ 1 000), a cursor page per_page + 1
 * from its position. A selective `q` may give a short page with a `next_cursor`: follow it until it is null.
 */
export async function listTemplates(
  deps: { templates: TemplateStore; cursorSecret: string },
  clientId: number,
  filter: TemplateListBody,
): Promise<TemplatePage> {
  const scope = scopeOf(filter);
  const from =
    filter.cursor === undefined ? undefined : cursors.read(deps.cursorSecret, filter.cursor, clientId, scope);
  if (filter.cursor !== undefined && !from) throw invalidField('format', 'cursor', 'Not a cursor of this list');
  const perPage = filter.per_page;
  const page = from?.page ?? filter.page;
  const afterId = from?.position ?? 0;
  const skip = from ? 0 : (page - 1) * perPage;
  const q = filter.q?.toLowerCase();
  const matches = (t: TemplateSummary) =>
    (filter.include_deleted || !t.deleted_at) &&
    (!q || t.name.toLowerCase().includes(q) || t.subject.toLowerCase().includes(q));

  const system =
    filter.type === 2 ? [] : SYSTEM_TEMPLATES.filter((t) => t.id > afterId && matches(t)).sort((a, b) => a.id - b.id);
  const budget = from ? perPage + 1 : page * perPage + TOTAL_LOOKAHEAD;
  const own =
    filter.type === 1
      ? { templates: [], more: false }
      : await deps.templates.listSummaries(clientId, { limit: budget, afterId });
  const all = [...system, ...own.templates.filter(matches)];
  const shown = all.slice(skip, skip + perPage);
  // Past the page: the last one shown when more matches were read; else where the read stopped, if the list goes on.
  const next =
    all.length > skip + perPage ? shown.at(-1)!.id : own.more ? (own.templates.at(-1)?.id ?? afterId) : undefined;
  return {
    templates: shown.map(toTemplateSummaryView),
    next_cursor:
      next === undefined ? null : cursors.sign(deps.cursorSecret, clientId, scope, { page: page + 1, position: next }),
    meta: boundedPageMetaOf(page, perPage, (page - 1) * perPage - skip + all.length, !own.more),
  };
}
