import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { statsStore } from '../../shared/composition/providers/stats-store.js';
import { getWorkflowStats } from '../../shared/domain/stats/get-stats.js';
import { StatsQuery, WorkflowStatsParams, WorkflowStatsView } from '../../shared/domain/stats/schemas.js';
import { STATS_FRESHNESS } from '../../shared/public/stats-rules.js';

/** GET /client/workflows/{workflow_id}/stats — one workflow's counters, funnel and skip/fail reasons. */
export const handler = jsonApi(
  {
    summary: "Get a workflow's statistics",
    description:
      "The workflow's counters over `from`..`to` (UTC days, at most 400; default the last 30 days) as GET /client/stats " +
      'gives them, with its funnel (events that triggered it → sent → delivered → opened → clicked, humans only) and ' +
      `the reasons of its skips and failures. An unknown workflow is 404. ${STATS_FRESHNESS}`,
    params: WorkflowStatsParams,
    query: StatsQuery,
    responses: { 200: WorkflowStatsView },
    errors: [404],
  },
  [statsStore, clock],
  async ({ params, query }, { deps, principal }) =>
    ok(await getWorkflowStats(deps, principal, params.workflow_id, query)),
);
