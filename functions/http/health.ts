import { ok } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/api.js';

/** GET /api/v1/health — 200 when the store answers; no authentication. */
export const handler = publicApi({}, async (_input, { deps }) => {
  await deps.pingStore();
  return ok({ status: 'ok' }, 'Service is healthy');
});
