import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { streamFunctions } from '../../functions/streams.js';
import { queueFunctions, type QueueFunctionDefinition } from '../../functions/queues.js';
import { createDataTable } from '../../infra/data-table.js';
import { SharedResources } from '../../infra/shared-resources.js';
import { addNagChecks } from '../../infra/nag.js';
import { addQueueFunctions } from '../../infra/queue-function.js';
import { synthesize as synthesizeApp } from './support/synthesized-stack.js';

type Resource = { Type: string; Properties: Record<string, unknown> };

const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  }
).context;
const FIXTURE_ENTRY = fileURLToPath(new URL('./fixtures/queue-handler.ts', import.meta.url));

const appWith = () =>
  new App({ context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:appMode': 'inmemory' } });

/** A stack holding only the table, the engine and the queue functions of `table` (entries point at a fixture handler). */
function synthesize(table: readonly QueueFunctionDefinition[]) {
  const app = appWith();
  const stack = new Stack(app, 'QueueFunctions');
  const dataTable = createDataTable(stack, { deletionProtection: false });
  const shared = new SharedResources(stack, 'Engine', {
    queueFunctions: table,
    deletionProtection: false,
    senderEnvironment: {},
  });
  addQueueFunctions(stack, {
    queueFunctions: table,
    shared,
    table: dataTable,
    environment: { TABLE_NAME: dataTable.tableName },
    deletionProtection: false,
    entryOf: () => FIXTURE_ENTRY,
  });
  addNagChecks(app);
  const template = Template.fromStack(stack);
  return { app, template, resources: template.toJSON().Resources as Record<string, Resource> };
}

const ENGINE_LIKE: QueueFunctionDefinition[] = [
  { handler: 'process-events', queue: 'events', tableAccess: 'readWrite', sendsTo: ['workflow'], timeoutSeconds: 20 },
  { handler: 'execute-workflow', queue: 'workflow', tableAccess: 'readWrite', batchSize: 5, maxConcurrency: 50 },
];

/** The real app's stacks as one template. */
const appTemplate = () => synthesizeApp().template;

const logicalIdOf = (reference: unknown): string => {
  const ref = reference as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return ref.Ref ?? ref['Fn::GetAtt']![0];
};

describe('queue functions (infra)', () => {
  const { app, template, resources } = synthesize(ENGINE_LIKE);
  const byDescription = (description: string) =>
    Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === description,
    )!;

  it('builds one queue, one DLQ and one nodejs22.x arm64 function per table entry', () => {
    // + the DLQ of the schedules, which deliver to the workflow queue
    template.resourceCountIs('AWS::SQS::Queue', 2 * 2 + 1);
    template.resourceCountIs('AWS::Lambda::Function', 2);
    const [, fn] = byDescription('events queue -> process-events');
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: 20,
      MemorySize: 512,
    });
  });

  it.each([
    ['events', 20, 10],
    ['workflow', 30, 5],
  ] as const)(
    'gives the %s queue a visibility of 6× its function timeout, a DLQ after 5 deliveries and SSE',
    (queue, timeout, batchSize) => {
      // Assess: the queue the mapping reads from
      const handler = ENGINE_LIKE.find((d) => d.queue === queue)!.handler;
      const [functionId] = byDescription(`${queue} queue -> ${handler}`);
      const mapping = Object.values(resources).find(
        (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && logicalIdOf(r.Properties.FunctionName) === functionId,
      )!;
      expect(mapping.Properties).toMatchObject({
        BatchSize: batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const sourceQueue = resources[logicalIdOf(mapping.Properties.EventSourceArn)]!;
      expect(sourceQueue.Properties).toMatchObject({
        VisibilityTimeout: timeout * 6,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { maxReceiveCount: 5 },
      });
      const dlq =
        resources[
          logicalIdOf((sourceQueue.Properties.RedrivePolicy as { deadLetterTargetArn: unknown }).deadLetterTargetArn)
        ]!;
      expect(dlq.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    },
  );

  it('caps the concurrency of a mapping when the entry asks', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: 5,
      ScalingConfig: { MaximumConcurrency: 50 },
    });
  });

  it('alarms as soon as one message sits in a DLQ', () => {
    template.resourceCountIs('AWS::CloudWatch::Alarm', 2 + 1);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('lets a function send only to the queues it names, and gives it their URLs', () => {
    // Prepare
    const sendActions = (functionId: string) =>
      Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy')
        .filter((r) =>
          (r.Properties.Roles as unknown[]).some(
            (role) => logicalIdOf(role) === logicalIdOf(resources[functionId]!.Properties.Role),
          ),
        )
        .flatMap(
          (r) =>
            (r.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] })
              .Statement,
        )
        .filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    const [eventsFn, events] = byDescription('events queue -> process-events');
    const [workflowFn] = byDescription('workflow queue -> execute-workflow');
    const workflowQueueId = logicalIdOf(
      Object.values(resources).find(
        (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && logicalIdOf(r.Properties.FunctionName) === workflowFn,
      )!.Properties.EventSourceArn,
    );

    // Assess
    const sends = sendActions(eventsFn);
    expect(sends).toHaveLength(1);
    expect(logicalIdOf(sends[0]!.Resource)).toBe(workflowQueueId);
    expect(sendActions(workflowFn)).toEqual([]);
    expect((events.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      WORKFLOW_QUEUE_URL: { Ref: workflowQueueId },
    });
  });

  it('leaves no cdk-nag AwsSolutions finding unacknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
  });

  it('refuses a send to a queue no function consumes', () => {
    expect(() =>
      synthesize([{ handler: 'process-events', queue: 'events', tableAccess: 'read', sendsTo: ['workflow'] }]),
    ).toThrow(/sends to "workflow", which no queue function consumes/);
  });

  it("builds the real stack from functions/queues.ts (a queue and a DLQ per entry, the schedules' DLQ, an on-failure queue per stream function)", () => {
    // Every stack of the app: the queues are the root's, the on-failure queues the engine's.
    appTemplate().resourceCountIs('AWS::SQS::Queue', queueFunctions.length * 2 + 1 + streamFunctions.length);
  });
});
