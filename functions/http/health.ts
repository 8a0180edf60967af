import { ok } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';
import { storeProbe } from '../../shared/composition/providers/store-probe.js';

/** GET /api/v1/health — 200 when the store answers; no authentication. */
export const handler = publicApi({}, [storeProbe], async (_input, { deps }) => {
  await deps.storeProbe.ping();
  return ok({ status: 'ok' }, 'Service is healthy');
});
