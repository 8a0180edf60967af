import { GetQueueAttributesCommand, SQSClient, StartMessageMoveTaskCommand } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsDeadLetters } from '../../../../shared/adapters/sqs/sqs-dead-letters.js';

const client = new SQSClient({ region: 'eu-west-1' });
const sqsMock = mockClient(client);
afterEach(() => sqsMock.reset());

const WORKFLOW_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/EmailLifecycle-WorkflowQueue-AbC';
const WORKFLOW_ARN = 'arn:aws:sqs:eu-west-1:123456789012:EmailLifecycle-WorkflowQueue-AbC';
const DLQ_ARN = 'arn:aws:sqs:eu-west-1:123456789012:EmailLifecycle-WorkflowDeadLetters-XyZ';
const deadLetters = new SqsDeadLetters(client, { workflow: WORKFLOW_URL });

const attributeInputs = () => sqsMock.commandCalls(GetQueueAttributesCommand).map((c) => c.args[0].input);
const moveInputs = () => sqsMock.commandCalls(StartMessageMoveTaskCommand).map((c) => c.args[0].input);

describe('SqsDeadLetters.redrive', () => {
  it("reads the queue's ARN and DLQ from its attributes, then moves the DLQ's messages to that queue", async () => {
    // Prepare
    sqsMock.on(GetQueueAttributesCommand).resolves({
      Attributes: {
        QueueArn: WORKFLOW_ARN,
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: DLQ_ARN, maxReceiveCount: 5 }),
      },
    });
    sqsMock.on(StartMessageMoveTaskCommand).resolves({ TaskHandle: 'task-1' });

    // Act
    const outcome = await deadLetters.redrive('workflow');

    // Assess
    expect(outcome).toEqual({
      kind: 'started',
      taskHandle: 'task-1',
      sourceArn: DLQ_ARN,
      destinationArn: WORKFLOW_ARN,
    });
    expect(attributeInputs()).toEqual([{ QueueUrl: WORKFLOW_URL, AttributeNames: ['QueueArn', 'RedrivePolicy'] }]);
    expect(moveInputs()).toEqual([{ SourceArn: DLQ_ARN, DestinationArn: WORKFLOW_ARN }]);
  });

  it.each([
    { name: 'no RedrivePolicy', attributes: { QueueArn: WORKFLOW_ARN } },
    {
      name: 'a RedrivePolicy without a target',
      attributes: { QueueArn: WORKFLOW_ARN, RedrivePolicy: '{"maxReceiveCount":5}' },
    },
    { name: 'an unreadable RedrivePolicy', attributes: { QueueArn: WORKFLOW_ARN, RedrivePolicy: 'not json' } },
  ])('refuses a queue with $name and starts no move', async ({ attributes }) => {
    // Prepare
    sqsMock.on(GetQueueAttributesCommand).resolves({ Attributes: attributes });

    // Act
    const redriving = deadLetters.redrive('workflow');

    // Assess
    await expect(redriving).rejects.toThrow(`${WORKFLOW_URL} has no dead-letter queue (no RedrivePolicy)`);
    expect(moveInputs()).toEqual([]);
  });

  it('refuses a queue it has no URL for, sending nothing', async () => {
    // Act
    const redriving = deadLetters.redrive('events');

    // Assess
    await expect(redriving).rejects.toThrow('no URL for the events queue');
    expect(sqsMock.calls()).toEqual([]);
  });

  it("passes SQS's refusal on (a move task already running on that DLQ)", async () => {
    // Prepare
    sqsMock.on(GetQueueAttributesCommand).resolves({
      Attributes: { QueueArn: WORKFLOW_ARN, RedrivePolicy: JSON.stringify({ deadLetterTargetArn: DLQ_ARN }) },
    });
    sqsMock.on(StartMessageMoveTaskCommand).rejects(new Error('There is already a task running'));

    // Act + Assess
    await expect(deadLetters.redrive('workflow')).rejects.toThrow('There is already a task running');
  });
});
