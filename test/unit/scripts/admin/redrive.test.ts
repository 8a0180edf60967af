import { GetQueueAttributesCommand, SQSClient, StartMessageMoveTaskCommand } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { queueUrlVariable, redriveOnAws, regionOfQueueUrl } from '../../../../scripts/admin/redrive.js';

// Every SQSClient the CLI builds.
const sqsMock = mockClient(SQSClient);
afterEach(() => sqsMock.reset());

const STATUS_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/EmailLifecycle-SesStatusQueue-AbC';
const STATUS_ARN = 'arn:aws:sqs:eu-west-1:123456789012:EmailLifecycle-SesStatusQueue-AbC';
const DLQ_ARN = 'arn:aws:sqs:eu-west-1:123456789012:EmailLifecycle-SesStatusDeadLetters-XyZ';

describe('admin redrive on AWS', () => {
  it("starts a move from the queue's DLQ to the queue, in the region of the queue's URL", async () => {
    // Prepare
    sqsMock.on(GetQueueAttributesCommand).resolves({
      Attributes: {
        QueueArn: STATUS_ARN,
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: DLQ_ARN, maxReceiveCount: 5 }),
      },
    });
    sqsMock.on(StartMessageMoveTaskCommand).resolves({ TaskHandle: 'task-1' });

    // Act
    const outcome = await redriveOnAws({ queue: 'ses-status', queueUrl: STATUS_URL });

    // Assess
    expect(outcome).toEqual({ kind: 'started', taskHandle: 'task-1', sourceArn: DLQ_ARN, destinationArn: STATUS_ARN });
    expect(sqsMock.calls().map((c) => c.args[0].input)).toEqual([
      { QueueUrl: STATUS_URL, AttributeNames: ['QueueArn', 'RedrivePolicy'] },
      { SourceArn: DLQ_ARN, DestinationArn: STATUS_ARN },
    ]);
    expect(await (sqsMock.call(0).thisValue as SQSClient).config.region()).toBe('eu-west-1');
  });

  it("uses the region it is given over the URL's", async () => {
    // Prepare
    sqsMock.on(GetQueueAttributesCommand).resolves({
      Attributes: { QueueArn: STATUS_ARN, RedrivePolicy: JSON.stringify({ deadLetterTargetArn: DLQ_ARN }) },
    });
    sqsMock.on(StartMessageMoveTaskCommand).resolves({ TaskHandle: 'task-2' });

    // Act
    await redriveOnAws({ queue: 'ses-status', queueUrl: STATUS_URL, region: 'us-east-2' });

    // Assess
    expect(await (sqsMock.call(0).thisValue as SQSClient).config.region()).toBe('us-east-2');
  });
});

describe("the admin CLI's naming of a queue on AWS", () => {
  it.each([
    ['events', 'EVENTS_QUEUE_URL'],
    ['workflow', 'WORKFLOW_QUEUE_URL'],
    ['ses-status', 'SES_STATUS_QUEUE_URL'],
  ] as const)("reads the %s queue's URL from %s, as the stack names it for the functions", (queue, variable) => {
    expect(queueUrlVariable(queue)).toBe(variable);
  });

  it.each([
    [STATUS_URL, 'eu-west-1'],
    ['https://sqs.cn-north-1.amazonaws.com.cn/123456789012/q', 'cn-north-1'],
    ['http://localhost:4566/000000000000/q', undefined],
    ['not a url', undefined],
  ])('takes the region of %s as %s', (url, region) => {
    expect(regionOfQueueUrl(url)).toBe(region);
  });
});
