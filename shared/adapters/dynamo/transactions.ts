import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

const MAX_TRANSACTION_ATTEMPTS = 6;

/**
 * Sends a transaction, retrying with jittered backoff while it is cancelled only by a conflict with another
 * in-flight transaction on the same items (the SDK does not retry those); a failed condition is final.
 */
export async function sendTransaction(db: DynamoDBDocumentClient, command: TransactWriteCommand): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.send(command);
      return;
    } catch (error) {
      const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
      const onlyConflicts =
        reasons.some((r) => r.Code === 'TransactionConflict') &&
        reasons.every((r) => r.Code === 'TransactionConflict' || r.Code === 'None');
      if (!onlyConflicts || attempt >= MAX_TRANSACTION_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
}

