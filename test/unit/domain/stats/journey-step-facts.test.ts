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
});
