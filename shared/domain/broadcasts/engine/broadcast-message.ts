import * as z from '../../../validation/zod.js';
import type { BroadcastMessage as BroadcastMessageShape } from '../../../platform.js';

/** The broadcast queue's message (run-broadcasts parses every body with it). */
export const BroadcastMessage = z.object({
  client_id: z.int().check(z.positive()),
  broadcast_id: z.int().check(z.positive()),
  kind: z.enum(['start', 'snapshot', 'pace', 'cancel', 'decide', 'retry']),
  shard: z.optional(z.int().check(z.gte(0), z.lte(63))),
  gen: z.optional(z.int().check(z.gte(0))),
  cursor: z.optional(z.string().check(z.maxLength(64))),
}) satisfies z.ZodMiniType<BroadcastMessageShape>;
