import * as z from '../../validation/zod.js';
import { invalidField } from '../../errors.js';
import { boundedPageMetaOf, NextCursor, TOTAL_LOOKAHEAD, type BoundedPageMeta } from '../pagination/bounded-page.js';
import { positionCursor } from '../pagination/position-cursor.js';
import { CustomizationAuditView } from './customization.js';
import type { AuditPosition, WorkflowCustomizationStore } from './customization-store.js';
import type { AuditQuery } from './schemas.js';
import { requireWorkflow } from './update-customization.js';

/** `data` of the customization audit (its `meta` is a BoundedPageMeta). */
export const CustomizationAuditList = z.object({
  entries: z.array(CustomizationAuditView).check(z.meta({ description: 'Newest first' })),
  next_cursor: NextCursor,
});

const isPosition = (value: unknown): value is AuditPosition =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AuditPosition).at === 'string' &&
  typeof (value as AuditPosition).id === 'string';

const cursors = positionCursor<AuditPosition>('customization-audit-cursor:v1:', isPosition);

/**
 * GET /client/workflows/{workflow_id}/customization/audit: the changes of one workflow's overrides, newest first.
 * A numbered page reads the entries up to it and at most TOTAL_LOOKAHEAD past it (page × per_page ≤ 1 000); a
 * `cursor` page reads per_page + 1 entries from its position, whatever the trail's length.
 */
export async function listCustomizationAudit(
  deps: { customizations: WorkflowCustomizationStore; cursorSecret: string },
  clientId: number,
  workflowId: number,
  query: AuditQuery,
): Promise<z.output<typeof CustomizationAuditList> & { meta: BoundedPageMeta }> {
  requireWorkflow(workflowId);
  const scope = String(workflowId);
  const from = query.cursor === undefined ? undefined : cursors.read(deps.cursorSecret, query.cursor, clientId, scope);
  if (query.cursor !== undefined && !from) throw invalidField('format', 'cursor', 'Not a cursor of this list');
  const page = from?.page ?? query.page;
  const skip = from ? 0 : (page - 1) * query.per_page;
  const limit = from ? query.per_page + 1 : page * query.per_page + TOTAL_LOOKAHEAD;
  const { entries: read, more } = await deps.customizations.listAudit(clientId, workflowId, {
    limit,
    ...(from ? { after: from.position } : {}),
  });
  const shown = read.slice(skip, skip + query.per_page);
  const last = shown.at(-1);
  const followed = read.length > skip + query.per_page || more;
  return {
    // Entries written before the exit-event and topic overrides existed lack them: not overridden then.
    entries: shown.map((entry) => ({
      ...entry,
      before: { exit_events: null, conversion_window_days: null, topic_id: null, ...entry.before },
      after: { exit_events: null, conversion_window_days: null, topic_id: null, ...entry.after },
    })),
    next_cursor:
      followed && last
        ? cursors.sign(deps.cursorSecret, clientId, scope, { page: page + 1, position: { at: last.at, id: last.id } })
        : null,
    meta: boundedPageMetaOf(page, query.per_page, (page - 1) * query.per_page + read.length - skip, !more),
  };
}
