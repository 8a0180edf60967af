import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clock } from '../../../shared/composition/providers/clock.js';
import { contactStore } from '../../../shared/composition/providers/contact-store.js';
import { customizationStore } from '../../../shared/composition/providers/customization-store.js';
import { templateStore } from '../../../shared/composition/providers/template-store.js';
import { topicStore } from '../../../shared/composition/providers/topic-store.js';
import { updateSubscription } from '../../../shared/domain/contacts/update-subscription.js';
import { eventProcessingDeps } from '../../../shared/domain/events/create-event.js';
import { ingestEvent } from '../../../shared/domain/events/ingest-event.js';
import { processEvent } from '../../../shared/domain/events/process-event.js';
import { EventBody } from '../../../shared/domain/events/schemas.js';
import { executeWorkflow } from '../../../shared/domain/executions/execute-workflow.js';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import { createTopic } from '../../../shared/domain/topics/manage-topics.js';
import { updateCustomization } from '../../../shared/domain/workflows/update-customization.js';
import { CustomizationPatch } from '../../../shared/domain/workflows/schemas.js';
import { createTestClient } from '../support/clients.js';
import {
  addContact,
  engineContainer,
  engineDeps,
  executionsOf,
  FakeMailer,
  patchSettings,
  RecordingQueue,
  RecordingScheduler,
} from '../support/engine-components.js';

/**
 * Topics at send time on DynamoDB Local: the topics item rides in the send's BatchGetItem, so a send is
 * still 5 requests + 1 SES, and a skip for a topic the contact left is read, load and the skip's write.
 */
async function setup() {
  const mailer = new FakeMailer();
  const container = engineContainer({ queue: new RecordingQueue(), scheduler: new RecordingScheduler(), mailer });
  const deps = engineDeps(container);
  const config = container.resolve([topicStore, customizationStore, templateStore, contactStore, clock]);
  const client = await createTestClient();
  await patchSettings(deps, client.id, { enabled_workflows: [7] });
  const topic = await createTopic(config, client.id, {
    name: 'Feature tips',
    description: '',
    default_subscribed: true,
  });
  const principal = { keyId: null, method: 'jwt' as const, session: undefined };
  await updateCustomization(
    config,
    { clientId: client.id, principal },
    7,
    CustomizationPatch.parse({ topic_id: topic.id }),
  );
  const counter = container.requestCounter;
  return {
    deps,
    mailer,
    topic,
    async contact(leftTopic: boolean) {
      const email = `topic-${randomUUID().slice(0, 8)}@example.com`;
      const id = await addContact(deps, client.id, { email });
      if (leftTopic) await updateSubscription(config, client.id, { id }, { is_subscribed: false, topic_id: topic.id });
      return email;
    },
    async featureUsed(email: string) {
      const raw = { type: 'feature_used', email };
      const ingested = await ingestEvent(deps, client.id, EventBody.parse(raw), raw, 'async');
      const event = (await processEvent(eventProcessingDeps(deps), client.id, ingested.event.id))!;
      return (await executionsOf(deps, event)).get(7)!;
    },
    async execute(executionId: number) {
      const { result, usage } = await counter.measure(() => executeWorkflow(deps, client.id, executionId));
      return { outcome: result, requests: usage.by_command, total: usage.requests };
    },
  };
}

describe('topics at send time on DynamoDB', () => {
  it('sends the topic mail to a contact in the topic at 5 requests + 1 SES, with one-click headers', async () => {
    const t = await setup();
    const execution = await t.featureUsed(await t.contact(false));

    const run = await t.execute(execution.id);

    expect(run.outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(run.requests).toEqual({
      GetItemCommand: 1,
      BatchGetItemCommand: 1,
      UpdateItemCommand: 1,
      TransactWriteItemsCommand: 2,
    });
    expect(t.mailer.sent).toHaveLength(1);
    expect(t.mailer.sent[0]!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });

  it('skips `topic_unsubscribed` a contact that left the topic: read, load and the skip, nothing sent', async () => {
    const t = await setup();
    const execution = await t.featureUsed(await t.contact(true));

    const run = await t.execute(execution.id);

    expect(run.outcome).toEqual({ kind: 'finished', status: EXECUTION_STATUS.skipped, reason: 'topic_unsubscribed' });
    expect(run.total).toBe(3);
    expect(run.requests).toMatchObject({ GetItemCommand: 1, BatchGetItemCommand: 1 });
    expect(await t.deps.executions.get(execution.client_id, execution.id)).toMatchObject({
      status: EXECUTION_STATUS.skipped,
      reason: 'topic_unsubscribed',
    });
    expect(t.mailer.sent).toEqual([]);
  });
});
