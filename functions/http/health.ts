import * as z from '../../shared/validation/zod.js';
import { ok } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';
import { storeProbe } from '../../shared/composition/providers/store-probe.js';

/** GET /api/v1/health — 200 when the store answers; no authentication. */
export const handler = publicApi(
  {
    summary: 'Check the service',
    description: 'No authentication. 200 when the store answers; 500 when it does not.',
    responses: { 200: z.object({ status: z.literal('ok') }).check(z.meta({ id: 'Health' })) },
  },
  [storeProbe],
  async (_input, { deps }) => {
    await deps.storeProbe.ping();
    return ok({ status: 'ok' as const }, 'Service is healthy');
  },
);
