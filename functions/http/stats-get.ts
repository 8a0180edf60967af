import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { statsStore } from '../../shared/composition/providers/stats-store.js';
import { getStats } from '../../shared/domain/stats/get-stats.js';
import { ClientStatsQuery, StatsView } from '../../shared/domain/stats/schemas.js';
import { STATS_FRESHNESS } from '../../shared/public/stats-rules.js';

/** GET /client/stats — the client's day counters over a range, as a series with totals and rates. */
export const handler = jsonApi(
  {
    summary: 'Get sending statistics',
    description:
      'Sent, delivered, opened and clicked (humans only; machine opens and clicks counted apart), bounces, complaints, ' +
      'unsubscribes, failures, skips and deferrals, per UTC day, ISO week or month, with totals and rates, over ' +
      '`from`..`to` (UTC days, at most 400; default the last 30 days). `workflow_id` narrows to one workflow; ' +
      'without it the series also counts the events received by type. Reads one Query. ' +
      STATS_FRESHNESS,
    query: ClientStatsQuery,
    responses: { 200: StatsView },
    errors: [404],
  },
  [statsStore, clock],
  async ({ query }, { deps, principal }) => ok(await getStats(deps, principal, query)),
);
