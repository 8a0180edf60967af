import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * DynamoDB's transaction conflicts, which DynamoDB Local does not have (measured: 200 TransactWriteItems on one item
 * at once all succeed — it runs them one after the other). DynamoDB cancels a transaction that touches an item
 * another transaction holds ("TransactionConflict"); here an item is held from the moment its transaction is sent
 * until DynamoDB Local answers it, and a transaction meeting a held item is cancelled at once with the
 * TransactionCanceledException DynamoDB sends (CancellationReasons: TransactionConflict on the held items, None on
 * the others), without reaching DynamoDB Local. Plain writes are not checked: the claim's hot items (the quota
 * counter, a contact's day cap) are only written in transactions. Counts what it cancelled.
 */
export function emulateTransactionConflicts(db: DynamoDBDocumentClient): {
  cancelled: () => number;
  heldMs: () => number;
  transactions: () => number;
} {
  const held = new Map<string, number>();
  const send = db.send.bind(db) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  let cancelled = 0;
  let transactions = 0;
  let heldMs = 0;
  (db as { send: unknown }).send = async (command: unknown, ...rest: unknown[]) => {
    if (!(command instanceof TransactWriteCommand)) return send(command, ...rest);
    const keys = (command.input.TransactItems ?? []).map((item) => {
      const key = (item.Update?.Key ?? item.Put?.Item ?? item.Delete?.Key ?? item.ConditionCheck?.Key ?? {}) as {
        pk?: string;
        sk?: string;
      };
      return `${key.pk}\u0000${key.sk}`;
    });
    const busy = keys.map((k) => (held.get(k) ?? 0) > 0);
    if (busy.some(Boolean)) {
      cancelled += 1;
      throw new TransactionCanceledException({
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${busy.map((b) => (b ? 'TransactionConflict' : 'None')).join(', ')}]`,
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: busy.map((b) => ({ Code: b ? 'TransactionConflict' : 'None' })),
      });
    }
    for (const k of keys) held.set(k, (held.get(k) ?? 0) + 1);
    const started = performance.now();
    transactions += 1;
    try {
      return await send(command, ...rest);
    } finally {
      heldMs += performance.now() - started;
      for (const k of keys) held.set(k, held.get(k)! - 1);
    }
  };
  return { cancelled: () => cancelled, heldMs: () => heldMs, transactions: () => transactions };
}
