import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { UtcTimestamp } from '../time/utc-timestamp.js';
import { TOPIC_DESCRIPTION_MAX, TOPIC_NAME_MAX } from '../../public/topic-rules.js';

/** At most this many topics per client. */
export const MAX_TOPICS = 20;

/** `{id}` of the topic paths; anything that is not a plain id names no topic (→ 404). */
export const TopicIdParams = z.object({ id: plainIdParam(9, 'The topic id') });

const name = z.string({ error: (i) => (i.input === undefined ? 'name is required' : 'Must be a string') }).check(
  z.trim(),
  z.minLength(1, { message: 'Must not be blank', abort: true }),
  z.maxLength(TOPIC_NAME_MAX, `Must be at most ${TOPIC_NAME_MAX} characters`),
  z.meta({
    description:
      "Shown to contacts on the preference page; unique among the client's topics (case-insensitive: 409 `unique`)",
    examples: ['Product news'],
  }),
);
const description = z
  .string({ error: 'Must be a string' })
  .check(
    z.trim(),
    z.maxLength(TOPIC_DESCRIPTION_MAX, `Must be at most ${TOPIC_DESCRIPTION_MAX} characters`),
    z.meta({ description: 'Shown under the name on the preference page' }),
  );
const defaultSubscribed = z
  .boolean({ error: 'Must be a boolean' })
  .check(z.meta({ description: 'Whether a contact that never chose is subscribed to the topic' }));

/** POST /client/topics. At most MAX_TOPICS per client (409 `max`). */
export const TopicBody = z.object({
  name,
  description: z._default(z.optional(description), ''),
  default_subscribed: z._default(z.optional(defaultSubscribed), true),
});
export type TopicBody = z.output<typeof TopicBody>;

/** PATCH /client/topics/{id}: any subset; absent keeps a value. */
export const TopicPatch = z.object({
  name: z.optional(name),
  description: z.optional(description),
  default_subscribed: z.optional(defaultSubscribed),
});
export type TopicPatch = z.output<typeof TopicPatch>;

/** A topic as the API shows it (OpenAPI `Topic`). */
export const TopicView = z
  .object({
    id: z.int().check(z.gte(1)),
    name: z.string(),
    description: z.string(),
    default_subscribed: z.boolean(),
    contacts_left: z.int().check(
      z.gte(0),
      z.meta({
        description:
          "How many contacts left the topic: those whose own choice for it is false (a one-click link, the preference page, or PATCH /client/contacts/{id}/subscription with topic_id). A contact that never chose is not counted; one that left all marketing mail is counted only if it left this topic too. Kept exact with each change, in the change's own transaction",
      }),
    ),
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
  })
  .check(
    z.meta({ id: 'Topic', description: 'A kind of marketing mail a contact can leave without leaving the rest.' }),
  );
export type TopicView = z.output<typeof TopicView>;

export const TopicList = z.object({ topics: z.array(TopicView) });
export const TopicListMeta = z.object({
  total: z.int().check(z.gte(0)),
  max_topics: z.int().check(z.meta({ description: 'The most topics a client may have' })),
});
