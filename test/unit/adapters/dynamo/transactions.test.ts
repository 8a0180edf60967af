import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  observeTransactions,
  sendTransaction,
  type TransactionAttempt,
} from '../../../../shared/adapters/dynamo/transactions.js';

const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled [None, TransactionConflict]',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
  });

const command = () =>
  new TransactWriteCommand({
    TransactItems: [
      {
        Update: {
          TableName: 't',
          Key: { pk: 'EXEC#1#2', sk: 'EXEC' },
          UpdateExpression: 'SET a = :a',
          ExpressionAttributeValues: { ':a': 1 },
        },
      },
      { Put: { TableName: 't', Item: { pk: 'CAP#1#3#2026-01-15', sk: 'CAP' } } },
    ],
  });

describe('sendTransaction', () => {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const mock = mockClient(DynamoDBDocumentClient);
  afterEach(() => mock.reset());

  it('retries a transaction cancelled only by a conflict, and tells an observer of each attempt which item conflicted', async () => {
    // Prepare
    mock.on(TransactWriteCommand).rejectsOnce(conflict()).resolves({});
    const seen: TransactionAttempt[] = [];
    const stop = observeTransactions((attempt) => seen.push(attempt));

    // Act
    await sendTransaction(db, command());
    stop();
    await sendTransaction(db, command());

    // Assess: two attempts seen, none after the observer stopped
    const keys = [
      { pk: 'EXEC#1#2', sk: 'EXEC' },
      { pk: 'CAP#1#3#2026-01-15', sk: 'CAP' },
    ];
    expect(seen).toEqual([
      { keys, outcome: 'conflict', conflicted: [1] },
      { keys, outcome: 'done', conflicted: [] },
    ]);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });
});
