import { conflict, notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { WORKFLOW_IDS, findWorkflow } from '../workflows/catalog.js';
import type { WorkflowCustomizationStore } from '../workflows/customization-store.js';
import { MAX_TOPICS, type TopicBody, type TopicPatch, type TopicView } from './schemas.js';
import { contactsLeftOf, type TopicRecord, type TopicSet, type TopicStore } from './topic-store.js';

interface Deps {
  clock: Clock;
  topics: TopicStore;
}

/** Optimistic writes retried after losing to a concurrent one (re-read, re-decide). */
const MAX_ATTEMPTS = 6;
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));

/** The topic as the API shows it, with its `contacts_left` from the set it was read in. */
export const toTopicView = (t: TopicRecord, set: TopicSet): TopicView => ({
  id: t.id,
  name: t.name,
  description: t.description,
  default_subscribed: t.default_subscribed,
  contacts_left: contactsLeftOf(set, t.id),
  created_at: t.created_at,
  updated_at: t.updated_at,
});

/** GET /client/topics: the client's topics by id. */
export async function listTopics(deps: Pick<Deps, 'topics'>, clientId: number): Promise<TopicView[]> {
  const set = await deps.topics.load(clientId);
  return set.topics.map((t) => toTopicView(t, set));
}

/** One topic of the client, or 404 on `id` (another client's topic is missing here). */
export async function findTopic(deps: Pick<Deps, 'topics'>, clientId: number, topicId: number): Promise<TopicRecord> {
  return (await findTopicIn(deps, clientId, topicId)).topic;
}

/** One topic of the client with the set it was read in, or 404 on `id`. */
async function findTopicIn(
  deps: Pick<Deps, 'topics'>,
  clientId: number,
  topicId: number,
): Promise<{ topic: TopicRecord; set: TopicSet }> {
  const set = await deps.topics.load(clientId);
  const topic = set.topics.find((t) => t.id === topicId);
  if (!topic) throw notFound('id', 'Topic not found');
  return { topic, set };
}

/** GET /client/topics/{id}. */
export async function getTopic(deps: Pick<Deps, 'topics'>, clientId: number, topicId: number): Promise<TopicView> {
  const { topic, set } = await findTopicIn(deps, clientId, topicId);
  return toTopicView(topic, set);
}

const sameName = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

function refuseTakenName(set: TopicSet, name: string, except?: number): void {
  if (set.topics.some((t) => t.id !== except && sameName(t.name, name))) {
    throw conflict('unique', 'name', 'Another topic of the client has this name');
  }
}

/** Reads the set, lets `change` decide, and writes it under the version read; again when another write won. */
async function changeTopics<T>(
  deps: Deps,
  clientId: number,
  change: (set: TopicSet, at: string) => { next: TopicSet; result: T },
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const set = await deps.topics.load(clientId);
    const at = deps.clock.now().toISOString();
    const { next, result } = change(set, at);
    if (await deps.topics.save(clientId, { ...next, version: set.version + 1 }, at)) return result;
    if (attempt >= MAX_ATTEMPTS) throw conflict('state', 'id', 'The topics changed concurrently; try again');
    await pause(attempt);
  }
}

/** POST /client/topics: 409 `max` beyond MAX_TOPICS, 409 `unique` on a name taken (case-insensitive). */
export function createTopic(deps: Deps, clientId: number, body: TopicBody): Promise<TopicView> {
  return changeTopics(deps, clientId, (set, at) => {
    if (set.topics.length >= MAX_TOPICS) throw conflict('max', 'id', `A client has at most ${MAX_TOPICS} topics`);
    refuseTakenName(set, body.name);
    const topic: TopicRecord = { id: set.next_id, ...body, created_at: at, updated_at: at };
    return {
      next: { ...set, topics: [...set.topics, topic], next_id: set.next_id + 1 },
      result: toTopicView(topic, set),
    };
  });
}

/** PATCH /client/topics/{id}. Nothing changed: nothing written. */
export async function updateTopic(
  deps: Deps,
  clientId: number,
  topicId: number,
  patch: TopicPatch,
): Promise<TopicView> {
  const { topic: current, set: read } = await findTopicIn(deps, clientId, topicId);
  const changes = Object.entries(patch).filter(([k, v]) => v !== undefined && current[k as keyof TopicPatch] !== v);
  if (changes.length === 0) return toTopicView(current, read);
  return changeTopics(deps, clientId, (set, at) => {
    const topic = set.topics.find((t) => t.id === topicId);
    if (!topic) throw notFound('id', 'Topic not found');
    if (patch.name !== undefined) refuseTakenName(set, patch.name, topicId);
    const updated: TopicRecord = { ...topic, ...Object.fromEntries(changes), updated_at: at };
    return {
      next: { ...set, topics: set.topics.map((t) => (t.id === topicId ? updated : t)) },
      result: toTopicView(updated, set),
    };
  });
}

/**
 * DELETE /client/topics/{id}: 409 `state` naming the workflows whose customization points at it. A customization
 * saved with this topic while the delete runs can still name it afterwards; the send path then treats it as no topic
 * (docs/decisions/0107-topics-and-contact-choices.md).
 */
export async function deleteTopic(
  deps: Deps & { customizations: WorkflowCustomizationStore },
  clientId: number,
  topicId: number,
): Promise<TopicView> {
  await findTopic(deps, clientId, topicId);
  const users = (await deps.customizations.getMany(clientId, WORKFLOW_IDS))
    .filter((c) => c.topic_id === topicId)
    .sort((a, b) => a.workflow_id - b.workflow_id);
  if (users.length > 0) {
    const names = users.map((c) => `${c.workflow_id} (${findWorkflow(c.workflow_id)?.key ?? 'unknown'})`).join(', ');
    throw conflict(
      'state',
      'id',
      `The topic is in use by workflow ${names}: set their topic_id to null or another topic first`,
    );
  }
  return changeTopics(deps, clientId, (set) => {
    const topic = set.topics.find((t) => t.id === topicId);
    if (!topic) throw notFound('id', 'Topic not found');
    return { next: { ...set, topics: set.topics.filter((t) => t.id !== topicId) }, result: toTopicView(topic, set) };
  });
}
