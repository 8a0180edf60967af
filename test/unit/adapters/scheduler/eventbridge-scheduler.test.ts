import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { atExpression, EventBridgeScheduler } from '../../../../shared/adapters/scheduler/eventbridge-scheduler.js';

const client = new SchedulerClient({ region: 'us-east-1' });
const schedulerMock = mockClient(client);
afterEach(() => schedulerMock.reset());

const NOW = new Date('2025-03-30T00:59:30.250Z');
const config = {
  groupName: 'email-lifecycle',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler-to-workflow-queue',
  queueArns: { workflow: 'arn:aws:sqs:us-east-1:123456789012:workflow-queue' },
};
const scheduler = new EventBridgeScheduler(client, config, { now: () => NOW });
const message = { client_id: 7, execution_id: 42 };

describe('EventBridgeScheduler', () => {
  it('creates one UTC one-time schedule that sends the message to the queue and deletes itself', async () => {
    // Prepare
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:::schedule/x' });
    // Act
    await scheduler.scheduleAt(new Date('2025-03-31T08:30:00.000Z'), 'workflow', message, 'exec-7-42-1');
    // Assess
    expect(schedulerMock.commandCalls(CreateScheduleCommand).map((c) => c.args[0].input)).toEqual([
      {
        Name: 'exec-7-42-1',
        GroupName: 'email-lifecycle',
        ScheduleExpression: 'at(2025-03-31T08:30:00)',
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: 'arn:aws:sqs:us-east-1:123456789012:workflow-queue',
          RoleArn: 'arn:aws:iam::123456789012:role/scheduler-to-workflow-queue',
          Input: '{"client_id":7,"execution_id":42}',
        },
      },
    ]);
  });

  it('names a dead-letter queue on the target when one is configured', async () => {
    // Prepare
    schedulerMock.on(CreateScheduleCommand).resolves({});
    const withDlq = new EventBridgeScheduler(
      client,
      { ...config, deadLetterArn: 'arn:aws:sqs:us-east-1:1:scheduler-dlq' },
      { now: () => NOW },
    );
    // Act
    await withDlq.scheduleAt(new Date('2025-04-01T00:00:00Z'), 'workflow', message, 'n');
    // Assess
    expect(schedulerMock.commandCalls(CreateScheduleCommand)[0]?.args[0].input.Target?.DeadLetterConfig).toEqual({
      Arn: 'arn:aws:sqs:us-east-1:1:scheduler-dlq',
    });
  });

  it('takes an existing schedule of the same name as success (the name is the idempotency key)', async () => {
    // Prepare
    schedulerMock.on(CreateScheduleCommand).rejects(
      new ConflictException({
        message: 'Schedule exec-1 already exists.',
        Message: 'Schedule exec-1 already exists.',
        $metadata: {},
      }),
    );
    // Act
    const scheduling = scheduler.scheduleAt(new Date('2025-04-01T00:00:00Z'), 'workflow', message, 'exec-1');
    // Assess
    await expect(scheduling).resolves.toBeUndefined();
    expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(1);
  });

  it.each([
    new ValidationException({
      message: 'Invalid Schedule Expression',
      Message: 'Invalid Schedule Expression',
      $metadata: {},
    }),
    new ThrottlingException({ message: 'Rate exceeded', Message: 'Rate exceeded', $metadata: {} }),
    Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }),
  ])('lets $name reach the caller, so the work is retried', async (error) => {
    // Prepare
    schedulerMock.on(CreateScheduleCommand).rejects(error);
    // Act
    const scheduling = scheduler.scheduleAt(new Date('2025-04-01T00:00:00Z'), 'workflow', message, 'exec-1');
    // Assess
    await expect(scheduling).rejects.toMatchObject({ name: error.name });
  });

  it('cancels a schedule by deleting it in its group; one that ran already or never was is no error, a throttle is', async () => {
    schedulerMock
      .on(DeleteScheduleCommand)
      .resolvesOnce({})
      .rejectsOnce(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }))
      .rejectsOnce(new ThrottlingException({ message: 'slow down', Message: 'slow down', $metadata: {} }));

    await scheduler.cancel('exec-7-42-1');
    await scheduler.cancel('exec-7-42-1');
    const throttled = await scheduler.cancel('exec-7-42-1').then(
      () => 'resolved',
      (e: Error) => e.name,
    );

    expect(schedulerMock.commandCalls(DeleteScheduleCommand).map((c) => c.args[0].input)).toEqual([
      { Name: 'exec-7-42-1', GroupName: 'email-lifecycle' },
      { Name: 'exec-7-42-1', GroupName: 'email-lifecycle' },
      { Name: 'exec-7-42-1', GroupName: 'email-lifecycle' },
    ]);
    expect(throttled).toBe('ThrottlingException');
  });

  it('refuses a queue it has no ARN for and creates nothing', async () => {
    // Act
    const scheduling = scheduler.scheduleAt(
      new Date('2025-04-01T00:00:00Z'),
      'events',
      { client_id: 1, event_id: 1 },
      'e',
    );
    // Assess
    await expect(scheduling).rejects.toThrow('no ARN configured for the events queue');
    expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(0);
  });

  it('sends a sanitized name that still tells names apart', async () => {
    // Prepare
    schedulerMock.on(CreateScheduleCommand).resolves({});
    // Act
    await scheduler.scheduleAt(new Date('2025-04-01T00:00:00Z'), 'workflow', message, 'exec#7#42');
    // Assess
    expect(schedulerMock.commandCalls(CreateScheduleCommand)[0]?.args[0].input.Name).toMatch(
      /^exec-7-42-[0-9a-f]{16}$/,
    );
  });
});

describe('atExpression', () => {
  it.each([
    { case: 'a future whole second', instant: '2025-03-31T08:30:00.000Z', expected: 'at(2025-03-31T08:30:00)' },
    { case: 'a future fraction, rounded up', instant: '2025-03-31T08:30:00.001Z', expected: 'at(2025-03-31T08:30:01)' },
    { case: 'exactly one minute ahead', instant: '2025-03-30T01:00:30.250Z', expected: 'at(2025-03-30T01:00:31)' },
    {
      case: 'an instant within the next minute',
      instant: '2025-03-30T00:59:45.000Z',
      expected: 'at(2025-03-30T01:00:31)',
    },
    { case: 'an instant already past', instant: '2025-03-29T12:00:00.000Z', expected: 'at(2025-03-30T01:00:31)' },
  ])(
    'schedules $case at $expected (UTC, never before the instant, at least a minute ahead)',
    ({ instant, expected }) => {
      // Act
      const expression = atExpression(new Date(instant), NOW);
      // Assess
      expect(expression).toBe(expected);
    },
  );

  it('refuses an invalid date', () => {
    // Act
    const building = () => atExpression(new Date('not a date'), NOW);
    // Assess
    expect(building).toThrow(RangeError);
  });
});
