import { accepted } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { executionStore } from '../../shared/composition/providers/execution-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { retryExecution } from '../../shared/domain/executions/retry-execution.js';
import { ExecutionIdParams } from '../../shared/domain/executions/schemas.js';

/** POST /client/executions/{execution_id}/retry — only a failed execution: 202 with the acknowledgement. */
export const handler = jsonApi(
  { params: ExecutionIdParams },
  [executionStore, clock, queue, scheduler],
  async ({ params }, { deps, clientId }) => accepted(await retryExecution(deps, clientId, params.execution_id), 'Retry queued'),
);
