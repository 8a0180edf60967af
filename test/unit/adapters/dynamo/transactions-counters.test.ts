import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onCountersDropped, sendTransaction } from '../../../../shared/adapters/dynamo/transactions.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);

const fact = { Put: { TableName: 't', Item: { pk: 'EXEC#1#2', sk: 'EXEC' } } };
const counter = {
  Update: { TableName: 't', Key: { pk: 'STATS#1#3', sk: '2026-11-26#W0001' }, UpdateExpression: 'ADD #a0 :a0' },
};
const conflictOn = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

beforeEach(() => {
  dbMock.reset();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  onCountersDropped(undefined);
});

describe('sendTransaction and the day counters', () => {
  it('records the fact without its counter when only the counter kept conflicting, then adds the counter on its own', async () => {
    // Prepare: six conflicts on the counter row, then the transaction without it goes through; the counter's own
    // UpdateItem meets one more conflict, then lands.
    const dropped = vi.fn();
    onCountersDropped(dropped);
    dbMock.on(TransactWriteCommand).rejects(conflictOn('None', 'TransactionConflict'));
    dbMock.on(TransactWriteCommand, { TransactItems: [fact] }).resolves({});
    const busy = Object.assign(new Error('busy'), { name: 'TransactionConflictException' });
    dbMock.on(UpdateCommand).rejectsOnce(busy).resolves({});

    // Act
    const sent = sendTransaction(db, new TransactWriteCommand({ TransactItems: [fact, counter] }));
    await vi.runAllTimersAsync();
    await sent;

    // Assess
    const calls = dbMock.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems);
    expect(calls).toHaveLength(7);
    expect(calls.at(-1)).toEqual([fact]);
    expect(dbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input)).toEqual([counter.Update, counter.Update]);
    expect(dropped).not.toHaveBeenCalled();
  });

  it('says so when the counter cannot be added even on its own', async () => {
    const dropped = vi.fn();
    onCountersDropped(dropped);
    dbMock.on(TransactWriteCommand).rejects(conflictOn('None', 'TransactionConflict'));
    dbMock.on(TransactWriteCommand, { TransactItems: [fact] }).resolves({});
    dbMock.on(UpdateCommand).rejects(Object.assign(new Error('busy'), { name: 'TransactionConflictException' }));

    const sent = sendTransaction(db, new TransactWriteCommand({ TransactItems: [fact, counter] }));
    await vi.runAllTimersAsync();
    await sent;

    expect(dbMock.commandCalls(UpdateCommand)).toHaveLength(8);
    expect(dropped).toHaveBeenCalledWith(1);
  });

  it('adds no counter apart when the fact itself was refused (a duplicate counted it already)', async () => {
    dbMock.on(TransactWriteCommand).rejects(conflictOn('None', 'TransactionConflict'));
    dbMock.on(TransactWriteCommand, { TransactItems: [fact] }).rejects(conflictOn('ConditionalCheckFailed'));

    const sent = sendTransaction(db, new TransactWriteCommand({ TransactItems: [fact, counter] })).catch(
      (e: unknown) => e,
    );
    await vi.runAllTimersAsync();

    expect(await sent).toBeInstanceOf(TransactionCanceledException);
    expect(dbMock.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('still fails a transaction whose own items conflicted, counters or not', async () => {
    dbMock.on(TransactWriteCommand).rejects(conflictOn('TransactionConflict', 'TransactionConflict'));

    const sent = sendTransaction(db, new TransactWriteCommand({ TransactItems: [fact, counter] })).catch(
      (e: unknown) => e,
    );
    await vi.runAllTimersAsync();

    expect(await sent).toBeInstanceOf(TransactionCanceledException);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(6);
  });

  it('keeps the counter when a retry gets through', async () => {
    dbMock.on(TransactWriteCommand).rejectsOnce(conflictOn('None', 'TransactionConflict')).resolves({});

    const sent = sendTransaction(db, new TransactWriteCommand({ TransactItems: [fact, counter] }));
    await vi.runAllTimersAsync();
    await sent;

    expect(dbMock.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems)).toEqual([
      [fact, counter],
      [fact, counter],
    ]);
  });
});
