import * as z from '../../validation/zod.js';
import type { SegmentsMessage as SegmentsMessageShape } from '../../platform.js';

/** Contacts a message carries at most: their three keys each stay within one BatchGetItem of 100 keys. */
export const CONTACTS_PER_SEGMENTS_MESSAGE = 25;

/** The segments queue's message (evaluate-segments parses every body with it). */
export const SegmentsMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('contacts'),
    client_id: z.int().check(z.positive()),
    contact_ids: z.array(z.int().check(z.positive())).check(z.minLength(1), z.maxLength(CONTACTS_PER_SEGMENTS_MESSAGE)),
  }),
  z.object({
    kind: z.literal('backfill'),
    client_id: z.int().check(z.positive()),
    segment_id: z.int().check(z.positive()),
    version: z.int().check(z.positive()),
    shard: z.int().check(z.gte(0)),
    after: z.int().check(z.gte(0)),
  }),
  z.object({
    kind: z.literal('purge'),
    client_id: z.int().check(z.positive()),
    segment_id: z.int().check(z.positive()),
    shard: z.int().check(z.gte(0)),
    after: z.int().check(z.gte(0)),
  }),
]) satisfies z.ZodMiniType<SegmentsMessageShape>;
