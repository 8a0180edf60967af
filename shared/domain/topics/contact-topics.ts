import * as z from '../../validation/zod.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { TopicRecord } from './topic-store.js';

/**
 * A contact's own choice about one topic, on the contact item (issue 24 §3): `topic_<id>` = true | false. Absent: the
 * contact never chose, and the topic's `default_subscribed` applies. The send path reads it from the contact it
 * already reads; `is_subscribed` false (left all marketing mail) wins over every topic choice.
 */
export const topicChoiceAttribute = (topicId: number): string => `topic_${topicId}`;

export function topicChoiceOf(contact: ContactRecord, topicId: number): boolean | undefined {
  const value = (contact as unknown as Record<string, unknown>)[topicChoiceAttribute(topicId)];
  return typeof value === 'boolean' ? value : undefined;
}

/** Whether the contact gets the topic's mail as far as the topic goes (its choice, else the topic's default). */
export const subscribedToTopic = (contact: ContactRecord, topic: TopicRecord): boolean =>
  topicChoiceOf(contact, topic.id) ?? topic.default_subscribed;

/** `topic_subscriptions` of the Contact output: one entry per topic of the client, by topic id. */
export const TopicSubscriptions = z.array(z.object({ topic_id: z.int().check(z.gte(1)), is_subscribed: z.boolean() })).check(
  z.meta({
    description:
      "One entry per topic of the client (GET /client/topics): the contact's choice, else the topic's default_subscribed. " +
      'A contact with is_subscribed false gets no marketing mail whatever these say',
  }),
);

export const topicSubscriptionsOf = (contact: ContactRecord, topics: readonly TopicRecord[]): z.output<typeof TopicSubscriptions> =>
  topics.map((t) => ({ topic_id: t.id, is_subscribed: subscribedToTopic(contact, t) }));
