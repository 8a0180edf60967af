import { accepted } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { ExecutionRetryView } from '../../shared/domain/executions/execution-view.js';
import { retryExecution } from '../../shared/domain/executions/retry-execution.js';
import { ExecutionIdParams } from '../../shared/domain/executions/schemas.js';

/** POST /client/executions/{execution_id}/retry — only a failed execution: 202 with the acknowledgement. */
export const handler = jsonApi(
  {
    summary: 'Retry a failed execution',
    description:
      'Only a failed (4) execution: it becomes retried (7) and a new execution (`retried_from` = its id) is queued. ' +
      'The answer only acknowledges the queueing; read the outcome from the execution list. Anything else is 409 `state`, ' +
      "and so is a broadcast's recipient (its broadcast's `retry-failed` sends it at the broadcast's pace).",
    params: ExecutionIdParams,
    responses: { 202: ExecutionRetryView },
    errors: [404, 409],
  },
  [executionStore, clock, queue, scheduler],
  async ({ params }, { deps, clientId }) =>
    accepted(await retryExecution(deps, clientId, params.execution_id), 'Retry queued'),
);
