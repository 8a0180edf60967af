import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { journeyStore } from '../../shared/composition/providers/journey-store.js';
import { statsStore } from '../../shared/composition/providers/stats-store.js';
import { getJourneyStats } from '../../shared/domain/journeys/journey-stats.js';
import { JourneyIdParams, JourneyStatsQuery, JourneyStatsView } from '../../shared/domain/journeys/stats-schemas.js';
import { STATS_FRESHNESS } from '../../shared/public/stats-rules.js';

/** GET /client/journeys/{id}/stats — per step: entered, waiting now, left (by each way), sent and its engagement, ended. */
export const handler = jsonApi(
  {
    summary: "Get a journey's step statistics",
    description:
      'Per step of the journey over `from`..`to` (UTC days, at most 400; default the last 30 days): runs entered, ' +
      'left (and by which way: branch, arm, on_event, on_timeout), e-mails sent, delivered, opened and clicked by ' +
      'people (machines apart), converted, runs completed, exited or ended there; and `waiting`, the runs on the ' +
      'step now. A system journey: 422 ' +
      `\`read_only\` (its figures are GET /client/workflows/{id}/stats). ${STATS_FRESHNESS}`,
    params: JourneyIdParams,
    query: JourneyStatsQuery,
    responses: { 200: JourneyStatsView },
    errors: [404],
  },
  [journeyStore, statsStore, clock],
  async ({ params, query }, { deps, clientId }) => ok(await getJourneyStats(deps, clientId, params.id, query)),
);
