import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

const MAX_TRANSACTION_ATTEMPTS = 6;

/** One attempt of a transaction that `sendTransaction` sent: its items' keys and how it ended. */
export interface TransactionAttempt {
  keys: { pk: string; sk: string }[];
  /** `conflict`: cancelled only by TransactionConflict (retried unless it was the last attempt). */
  outcome: 'done' | 'conflict' | 'failed';
  /** The positions of the items that met a conflict (CancellationReasons). */
  conflicted: number[];
}

const observers = new Set<(attempt: TransactionAttempt) => void>();

/**
 * Watches every transaction attempt of this process (the claim-conflict benchmark counts TransactionConflict
 * retries by item with it); returns the function that stops watching. Nothing is recorded while none watches.
 */
export function observeTransactions(observer: (attempt: TransactionAttempt) => void): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

function report(
  command: TransactWriteCommand,
  outcome: TransactionAttempt['outcome'],
  reasons: { Code?: string }[],
): void {
  if (observers.size === 0) return;
  const keys = (command.input.TransactItems ?? []).map((item) => {
    const key = (item.Update?.Key ?? item.Put?.Item ?? item.Delete?.Key ?? item.ConditionCheck?.Key ?? {}) as {
      pk?: string;
      sk?: string;
    };
    return { pk: String(key.pk), sk: String(key.sk) };
  });
  const conflicted = reasons.flatMap((r, i) => (r.Code === 'TransactionConflict' ? [i] : []));
  for (const observer of observers) observer({ keys, outcome, conflicted });
}

/**
 * Sends a transaction, retrying with jittered backoff while it is cancelled only by a conflict with another
 * in-flight transaction on the same items (the SDK does not retry those); a failed condition is final.
 */
export async function sendTransaction(db: DynamoDBDocumentClient, command: TransactWriteCommand): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.send(command);
      report(command, 'done', []);
      return;
    } catch (error) {
      const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
      const onlyConflicts =
        reasons.some((r) => r.Code === 'TransactionConflict') &&
        reasons.every((r) => r.Code === 'TransactionConflict' || r.Code === 'None');
      report(command, onlyConflicts ? 'conflict' : 'failed', reasons);
      if (!onlyConflicts || attempt >= MAX_TRANSACTION_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
}
