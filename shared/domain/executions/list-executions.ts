import { createHash } from 'node:crypto';
import { invalidField } from '../../errors.js';
import { boundedPageMetaOf } from '../pagination/bounded-page.js';
import { positionCursor } from '../pagination/position-cursor.js';
import type { ExecutionStore } from './execution-store.js';
import { findWorkflow } from '../workflows/catalog.js';
import { toExecutionView, type ExecutionListMeta, type ExecutionView } from './execution-view.js';
import type { ExecutionListQuery } from './schemas.js';

/** A cursor's position: the listing key (`<created_at>#<id>`) of the last execution passed. */
const cursors = positionCursor<string>(
  'executions-list-cursor:v1:',
  (v): v is string => typeof v === 'string' && v.length <= 64,
);

/** The filters a cursor belongs to. */
const scopeOf = (q: ExecutionListQuery): string =>
  createHash('sha256')
    .update(JSON.stringify([q.workflowId ?? null, q.status ?? null, q.createdFrom ?? null, q.createdBefore ?? null]))
    .digest('base64url')
    .slice(0, 16);

/**
 * GET /client/executions: newest first, filtered, one page; `meta` carries page, per_page, total, total_pages and
 * total_is_exact, `data.next_cursor` the next page's cursor. A numbered page is bounded (page × per_page ≤ 1 000); a
 * cursor page reads one Query of per_page + 2 per listing shard wherever it is.
 */
export async function listExecutions(
  deps: {
    executions: ExecutionStore;
    cursorSecret: string;
    /** The client's running journeys' names: read (one GetItem) only for a page showing a journey's send. */
    journeyNames?: (clientId: number) => Promise<ReadonlyMap<number, string>>;
  },
  clientId: number,
  query: ExecutionListQuery,
): Promise<{ executions: ExecutionView[]; next_cursor: string | null; meta: ExecutionListMeta }> {
  const scope = scopeOf(query);
  const from = query.cursor === undefined ? undefined : cursors.read(deps.cursorSecret, query.cursor, clientId, scope);
  if (query.cursor !== undefined && !from) throw invalidField('format', 'cursor', 'Not a cursor of this list');
  const page = from?.page ?? query.page;
  const { executions, total, totalExact, next } = await deps.executions.list(clientId, {
    ...query,
    page,
    ...(from ? { after: from.position } : {}),
  });
  const namesJourney = deps.journeyNames && executions.some((e) => findWorkflow(e.workflow_id) === undefined);
  const journeys = namesJourney ? await deps.journeyNames!(clientId) : undefined;
  return {
    executions: executions.map((e) => toExecutionView(e, journeys)),
    next_cursor:
      next === undefined ? null : cursors.sign(deps.cursorSecret, clientId, scope, { page: page + 1, position: next }),
    // `total_is_exact` false: at least `total` match (the listing stops counting 100 past the page).
    meta: boundedPageMetaOf(page, query.perPage, total, totalExact),
  };
}
