import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DynamoDayCountersProjection,
  streamPositionOf,
} from '../../../../shared/adapters/dynamo/day-counters-projection.js';
import { deltasOfChange, sumDeltas } from '../../../../shared/domain/stats/counter-facts.js';

const DAY = '2026-11-28';
const at = (hh: string) => `${DAY}T${hh}:00:00.000Z`;

/** A run of journey 1000 (client 7) at `step_id`, with `fields`. */
const run = (fields: Record<string, unknown>) => ({
  id: 5,
  client_id: 7,
  journey_id: 1000,
  status: 'active',
  step_id: 'start',
  seq: 1,
  path: [],
  created_at: at('10'),
  updated_at: at('10'),
  ...fields,
});

const deltas = (old: object | undefined, now: object) =>
  sumDeltas(deltasOfChange({ entity: 'run', clientId: 7, ...(old ? { old } : {}), new: now }));

const step = (stepId: string) => ({ journeyId: 1000, stepId });
const gauge = { journeyGauge: 1000 };

describe('run changes as journey step counters', () => {
  it('an insert enters the entry step and puts the run on the gauge there', () => {
    expect(deltas(undefined, run({}))).toEqual([
      { clientId: 7, day: DAY, row: step('start'), adds: { entered: 1 } },
      { clientId: 7, day: DAY, row: gauge, adds: { s_start: 1 } },
    ]);
  });

  it('a transition through a branch into a wait: each step left (by its branch), the next entered, the gauge moved', () => {
    const before = run({});
    const after = run({
      seq: 2,
      step_id: 'pause',
      status: 'waiting',
      updated_at: at('11'),
      path: [
        { step: 'start', seq: 1, at: at('11') },
        { step: 'vip', seq: 1, at: at('11'), via: 'big_spender' },
      ],
    });
    expect(deltas(before, after)).toEqual([
      { clientId: 7, day: DAY, row: step('start'), adds: { left: 1 } },
      { clientId: 7, day: DAY, row: step('vip'), adds: { entered: 1, left: 1, v_big_spender: 1 } },
      { clientId: 7, day: DAY, row: step('pause'), adds: { entered: 1 } },
      { clientId: 7, day: DAY, row: gauge, adds: { s_start: -1, s_pause: 1 } },
    ]);
  });

  it('a split arm counts by its name; the same change read twice gives the same deltas (the position makes it once)', () => {
    const before = run({ step_id: 'ab' });
    const after = run({
      step_id: 'b_mail',
      seq: 2,
      arms: { ab: 1 },
      path: [{ step: 'ab', seq: 1, at: at('10'), via: 'b' }],
    });
    const first = deltas(before, after);
    expect(first).toContainEqual({ clientId: 7, day: DAY, row: step('ab'), adds: { left: 1, v_b: 1 } });
    expect(deltas(before, after)).toEqual(first);
  });

  it('an end: a null edge leaves the step and completes there (nothing entered after it), the gauge drops', () => {
    const before = run({ step_id: 'last', status: 'waiting' });
    const after = run({
      step_id: 'last',
      status: 'completed',
      seq: 2,
      ended_at: at('12'),
      updated_at: at('12'),
      path: [{ step: 'last', seq: 1, at: at('12'), via: 'on_timeout' }],
    });
    expect(deltas(before, after)).toEqual([
      { clientId: 7, day: DAY, row: step('last'), adds: { left: 1, v_on_timeout: 1, completed: 1 } },
      { clientId: 7, day: DAY, row: gauge, adds: { s_last: -1 } },
    ]);
  });

  it('an exit event ends a waiting run where it waits; a later rewrite of an ended run counts nothing', () => {
    const waiting = run({ step_id: 'pause', status: 'waiting' });
    const exited = run({
      step_id: 'pause',
      status: 'exited',
      reason: 'exit_event',
      ended_at: at('13'),
      updated_at: at('13'),
    });
    expect(deltas(waiting, exited)).toEqual([
      { clientId: 7, day: DAY, row: step('pause'), adds: { exited: 1 } },
      { clientId: 7, day: DAY, row: gauge, adds: { s_pause: -1 } },
    ]);
    expect(deltas(exited, { ...exited, expires_at: 1 })).toEqual([]);
  });

  it('a journey send step counts its claim on the step row beside the journey row', () => {
    const old = { status: 1, workflow_id: 1000, step_id: 'mail', updated_at: at('10') };
    const now = { ...old, claim: { log_id: 'l1', quota_day: DAY } };
    const rows = deltasOfChange({ entity: 'execution', clientId: 7, old, new: now });
    expect(rows).toContainEqual({ clientId: 7, day: DAY, row: step('mail'), adds: { sent: 1 } });
    expect(rows).toContainEqual({ clientId: 7, day: DAY, row: { workflowId: 1000 }, counts: { sent: 1 } });
  });

  it('a split arm taken adds to the arm’s run total on the gauge, with the split’s first time set once', () => {
    const before = run({ step_id: 'ab' });
    const after = run({
      step_id: 'b_mail',
      seq: 2,
      arms: { ab: 1 },
      updated_at: at('10'),
      path: [{ step: 'ab', seq: 1, at: at('10'), via: 'Short subject' }],
    });
    expect(deltas(before, after)).toContainEqual({
      clientId: 7,
      day: DAY,
      row: gauge,
      adds: { s_ab: -1, s_b_mail: 1, 'x_ab:runs:Short subject': 1 },
      firstSeen: { 'x_ab:since': Date.parse(at('10')) },
    });
  });

  it('a split arm’s send counts on the arm, and its give-back takes it back', () => {
    const old = { status: 1, workflow_id: 1000, step_id: 'mail', arms: { ab: 'b' }, updated_at: at('10') };
    const claimed = { ...old, status: 2, claim: { log_id: 'l1', quota_day: DAY } };
    expect(deltasOfChange({ entity: 'execution', clientId: 7, old, new: claimed })).toContainEqual({
      clientId: 7,
      day: DAY,
      row: gauge,
      adds: { 'x_ab:sent:b': 1 },
    });
    const released = { ...old, status: 4, processed_at: at('11') };
    expect(deltasOfChange({ entity: 'execution', clientId: 7, old: claimed, new: released })).toContainEqual({
      clientId: 7,
      day: DAY,
      row: gauge,
      adds: { 'x_ab:sent:b': -1 },
    });
  });
});

describe('status logs and conversions of a journey e-mail as step counters', () => {
  const log = (fields: Record<string, unknown>) => ({
    id: 'log',
    created_at: at('12'),
    workflow_id: 1000,
    step_id: 'mail',
    arms: { ab: 'b' },
    ...fields,
  });
  const ofLog = (image: object) => sumDeltas(deltasOfChange({ entity: 'sent_email_log', clientId: 7, new: image }));

  it('a first human open counts on the step and the arm; a delivery on the step only', () => {
    expect(ofLog(log({ status: 4, first_open: true }))).toEqual([
      { clientId: 7, day: DAY, row: { workflowId: 1000 }, counts: { opened: 1 } },
      { clientId: 7, day: DAY, row: step('mail'), adds: { human_opens: 1 } },
      { clientId: 7, day: DAY, row: gauge, adds: { 'x_ab:human_opens:b': 1 } },
    ]);
    expect(ofLog(log({ status: 3 }))).toEqual([
      { clientId: 7, day: DAY, row: { workflowId: 1000 }, counts: { delivered: 1 } },
      { clientId: 7, day: DAY, row: step('mail'), adds: { delivered: 1 } },
    ]);
  });

  it('a machine’s open or click counts as a machine’s on the step, never on the arm; a human’s later open none', () => {
    expect(ofLog(log({ status: 4, is_bot: true }))).toEqual([
      { clientId: 7, day: DAY, row: { workflowId: 1000 }, counts: { bot_opened: 1 } },
      { clientId: 7, day: DAY, row: step('mail'), adds: { machine_opens: 1 } },
    ]);
    expect(ofLog(log({ status: 5, is_bot: true }))).toContainEqual({
      clientId: 7,
      day: DAY,
      row: step('mail'),
      adds: { machine_clicks: 1 },
    });
    expect(ofLog(log({ status: 4 }))).toEqual([]);
  });

  it('a first human click counts on the step and the arm; a workflow’s e-mail names no step', () => {
    expect(ofLog(log({ status: 5, first_click: true }))).toContainEqual({
      clientId: 7,
      day: DAY,
      row: gauge,
      adds: { 'x_ab:human_clicks:b': 1 },
    });
    expect(ofLog({ id: 'l', created_at: at('12'), workflow_id: 1, status: 4, first_open: true })).toEqual([
      { clientId: 7, day: DAY, row: { workflowId: 1 }, counts: { opened: 1 } },
    ]);
  });

  it('an event converting a journey e-mail counts on its step and arms', () => {
    const queued = { id: 9, type: 'upgraded', queue_status: 'queued', created_at: at('14') };
    const processed = {
      ...queued,
      queue_status: 'processed',
      execution_workflow_ids: [],
      converted_workflow_ids: [1000],
      converted_steps: [{ journey_id: 1000, step_id: 'mail', arms: { ab: 'b' } }],
    };
    const rows = sumDeltas(deltasOfChange({ entity: 'event', clientId: 7, old: queued, new: processed }));
    expect(rows).toContainEqual({ clientId: 7, day: DAY, row: step('mail'), adds: { converted: 1 } });
    expect(rows).toContainEqual({ clientId: 7, day: DAY, row: gauge, adds: { 'x_ab:converted:b': 1 } });
    expect(rows).toContainEqual({ clientId: 7, day: DAY, row: { workflowId: 1000 }, counts: { converted: 1 } });
  });
});

describe('the projection writes journey rows once per record', () => {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const dbMock = mockClient(db);
  beforeEach(() => dbMock.reset());
  const inserted: DynamoDBRecord = {
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: '2000',
      Keys: marshall({ pk: 'RUN#7#5', sk: 'RUN' }) as never,
      NewImage: marshall({ pk: 'RUN#7#5', sk: 'RUN', entity: 'run', ...run({}) }) as never,
    },
  };

  it('a run insert: the step day row and the gauge, with the position; handed over again: nothing', async () => {
    dbMock.on(GetCommand).resolves({});
    dbMock.on(TransactWriteCommand).resolves({});
    const projection = new DynamoDayCountersProjection(db, 'tbl');
    await projection.apply('s1', [inserted]);
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => i.Update!.Key)).toEqual([
      { pk: 'STREAMPOS#day-counters#s1', sk: 'STREAMPOS' },
      { pk: 'STATS#7#0', sk: `${DAY}#J001000#start` },
      { pk: 'STATS#7#0', sk: 'NOW#J001000' },
    ]);
    expect(items[1]!.Update!.UpdateExpression).toContain('ADD #a0 :a0');
    expect(items[2]!.Update!.ExpressionAttributeNames).toEqual({ '#a0': 's_start' });

    dbMock.reset();
    dbMock.on(GetCommand).resolves({ Item: { pos: streamPositionOf('2000') } });
    const again = await projection.apply('s1', [inserted]);
    expect(again.replayed).toBe(1);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('a run taking a split arm: the gauge adds the arm’s run and sets the split’s start only if absent; a replay still names the journey for its winner', async () => {
    const passed: DynamoDBRecord = {
      eventName: 'MODIFY',
      dynamodb: {
        SequenceNumber: '3000',
        Keys: marshall({ pk: 'RUN#7#5', sk: 'RUN' }) as never,
        OldImage: marshall({ pk: 'RUN#7#5', sk: 'RUN', entity: 'run', ...run({ step_id: 'ab' }) }) as never,
        NewImage: marshall({
          pk: 'RUN#7#5',
          sk: 'RUN',
          entity: 'run',
          ...run({
            step_id: 'mail_a',
            seq: 2,
            arms: { ab: 0 },
            path: [{ step: 'ab', seq: 1, at: at('10'), via: 'A' }],
          }),
        }) as never,
      },
    };
    dbMock.on(GetCommand).resolves({});
    dbMock.on(TransactWriteCommand).resolves({});
    const projection = new DynamoDayCountersProjection(db, 'tbl');
    const outcome = await projection.apply('s1', [passed]);
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    const gaugeUpdate = items.find((i) => i.Update!.Key!['sk'] === 'NOW#J001000')!.Update!;
    expect(gaugeUpdate.UpdateExpression).toContain('#f0 = if_not_exists(#f0, :f0)');
    expect(gaugeUpdate.ExpressionAttributeNames).toMatchObject({ '#f0': 'x_ab:since' });
    expect(Object.values(gaugeUpdate.ExpressionAttributeNames!)).toContain('x_ab:runs:A');
    expect(outcome.splitsMoved).toEqual([{ clientId: 7, journeyId: 1000 }]);

    dbMock.reset();
    dbMock.on(GetCommand).resolves({ Item: { pos: streamPositionOf('3000') } });
    const again = await projection.apply('s1', [passed]);
    expect(again).toMatchObject({ replayed: 1, applied: 0, splitsMoved: [{ clientId: 7, journeyId: 1000 }] });
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
