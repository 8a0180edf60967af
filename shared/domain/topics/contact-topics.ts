import * as z from '../../validation/zod.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { TopicRecord } from './topic-store.js';

/**
 * A contact's own choice about one topic, on the contact item: `topic_<id>` = true | false. Absent: the
 * contact never chose, and the topic's `default_subscribed` applies. The send path reads it from the contact it
 * already reads; `is_subscribed` false (left all marketing mail) wins over every topic choice.
 */
export const topicChoiceAttribute = (topicId: number): string => `topic_${topicId}`;

/** The topic id an attribute name is the choice of (`topic_12` → 12); undefined for any other attribute. */
export function topicIdOfAttribute(name: string): number | undefined {
  const id = /^topic_(\d+)$/.exec(name)?.[1];
  return id === undefined ? undefined : Number(id);
}

/**
 * How a contact's last choice about a topic was made, kept beside it with its time (`topic_at_<id>`, `topic_by_<id>`)
 * in the same write, so the activity timeline shows each topic's choice where it happened.
 */
export const TOPIC_CHOICE_SOURCES = ['api', 'one_click', 'preference_page'] as const;
export type TopicChoiceSource = (typeof TOPIC_CHOICE_SOURCES)[number];
export const topicChoiceTimeAttribute = (topicId: number): string => `topic_at_${topicId}`;
export const topicChoiceSourceAttribute = (topicId: number): string => `topic_by_${topicId}`;

/** The attributes a topic choice writes: the choice, its time and how it was made. */
export const topicChoiceAttributes = (
  topicId: number,
  subscribed: boolean,
  at: string,
  by: TopicChoiceSource,
): Record<string, unknown> => ({
  [topicChoiceAttribute(topicId)]: subscribed,
  [topicChoiceTimeAttribute(topicId)]: at,
  [topicChoiceSourceAttribute(topicId)]: by,
});

/** A topic choice with its time, as the activity timeline shows it. */
export interface TopicChoiceChange {
  topicId: number;
  subscribed: boolean;
  at: string;
  by: TopicChoiceSource;
}

/** The contact's last choice of each topic that has a recorded time (choices made before times were kept have none). */
export function topicChoiceChangesOf(contact: ContactRecord): TopicChoiceChange[] {
  const attributes = contact as unknown as Record<string, unknown>;
  const changes: TopicChoiceChange[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    const id = topicIdOfAttribute(name);
    if (id === undefined || typeof value !== 'boolean') continue;
    const at = attributes[topicChoiceTimeAttribute(id)];
    const by = attributes[topicChoiceSourceAttribute(id)];
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) continue;
    const source = (TOPIC_CHOICE_SOURCES as readonly unknown[]).includes(by) ? (by as TopicChoiceSource) : 'api';
    changes.push({ topicId: id, subscribed: value, at: new Date(Date.parse(at)).toISOString(), by: source });
  }
  return changes;
}

/**
 * How a topic's `contacts_left` moves when a contact's own choice goes from `previous` to `next`: it
 * counts the contacts whose choice is false, so only a change to or from false moves it (a contact that never chose
 * is not counted).
 */
export const contactsLeftDelta = (previous: boolean | undefined, next: boolean | undefined): -1 | 0 | 1 =>
  ((next === false ? 1 : 0) - (previous === false ? 1 : 0)) as -1 | 0 | 1;

/** The topics whose choice is false on the contact (those its erasure takes off the counts). */
export function leftTopicsOf(contact: ContactRecord): number[] {
  return Object.entries(contact as unknown as Record<string, unknown>).flatMap(([name, value]) => {
    const id = topicIdOfAttribute(name);
    return id !== undefined && value === false ? [id] : [];
  });
}

export function topicChoiceOf(contact: ContactRecord, topicId: number): boolean | undefined {
  const value = (contact as unknown as Record<string, unknown>)[topicChoiceAttribute(topicId)];
  return typeof value === 'boolean' ? value : undefined;
}

/** Whether the contact gets the topic's mail as far as the topic goes (its choice, else the topic's default). */
export const subscribedToTopic = (contact: ContactRecord, topic: TopicRecord): boolean =>
  topicChoiceOf(contact, topic.id) ?? topic.default_subscribed;

/** `topic_subscriptions` of the Contact output: one entry per topic of the client, by topic id. */
export const TopicSubscriptions = z
  .array(z.object({ topic_id: z.int().check(z.gte(1)), is_subscribed: z.boolean() }))
  .check(
    z.meta({
      description:
        "One entry per topic of the client (GET /client/topics): the contact's choice, else the topic's default_subscribed. " +
        'A contact with is_subscribed false gets no marketing mail whatever these say',
    }),
  );

export const topicSubscriptionsOf = (
  contact: ContactRecord,
  topics: readonly TopicRecord[],
): z.output<typeof TopicSubscriptions> =>
  topics.map((t) => ({ topic_id: t.id, is_subscribed: subscribedToTopic(contact, t) }));
