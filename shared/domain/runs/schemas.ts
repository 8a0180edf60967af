import * as z from '../../validation/zod.js';
import type { RunMessage as RunMessageShape } from '../../platform.js';

/** The journey queue's message (advance-runs parses every body with it). */
export const RunMessage = z.object({
  client_id: z.int().check(z.positive()),
  run_id: z.int().check(z.positive()),
  seq: z.int().check(z.positive()),
  contact_id: z.optional(z.int().check(z.positive())),
  execution_id: z.optional(z.int().check(z.positive())),
  sent_email_ids: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(100))),
  segment_ids: z.optional(z.array(z.int().check(z.positive())).check(z.maxLength(100))),
  journey_id: z.optional(z.int().check(z.positive())),
  version: z.optional(z.int().check(z.positive())),
}) satisfies z.ZodMiniType<RunMessageShape>;
