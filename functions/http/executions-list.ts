import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { contactActivityStore } from '../../shared/composition/providers/contact-activity-store.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { PAGE_WINDOW_RULE } from '../../shared/domain/pagination/bounded-page.js';
import { ExecutionList, ExecutionListMeta } from '../../shared/domain/executions/execution-view.js';
import { listExecutions } from '../../shared/domain/executions/list-executions.js';
import { ExecutionListQuery } from '../../shared/domain/executions/schemas.js';

/** GET /client/executions — newest first; filters workflow_id, status, created_from, created_to; page, per_page. */
export const handler = jsonApi(
  {
    summary: 'List executions',
    description:
      "The client's workflow executions, newest first. `created_from` and `created_to` are RFC 3339 timestamps or " +
      'dates (YYYY-MM-DD; a date as upper bound includes that whole day). Bad filter values are 422. `page` and ' +
      `\`per_page\` (≤ 100) number the pages: ${PAGE_WINDOW_RULE}; \`next_cursor\` reads one page's worth wherever it ` +
      'is (with `workflow_id` or `status`, a page may be short before the end: follow it until it is null).',
    query: ExecutionListQuery,
    responses: { 200: { data: ExecutionList, meta: ExecutionListMeta } },
  },
  [executionStore, contactActivityStore, linkSecret],
  async ({ query }, { deps, clientId }) => {
    const { meta, ...list } = await listExecutions(
      {
        executions: deps.executions,
        cursorSecret: await deps.linkSecret.value(),
        journeyNames: (id) => deps.contactActivity.journeyNames(id),
      },
      clientId,
      query,
    );
    return ok(list, 'OK', meta);
  },
);
