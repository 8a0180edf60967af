import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { isStatsKey } from './keys.js';

const MAX_TRANSACTION_ATTEMPTS = 6;
/** Attempts of a counter's own `UpdateItem` after its fact was recorded without it (conflicts are retried). */
const MAX_APART_ATTEMPTS = 8;

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
 * A counter that could not be added even on its own (every attempt conflicted, or the request failed) is a counted
 * inexactness: a structured warning line (CloudWatch keeps it on AWS). Written directly, not through the Powertools
 * logger: importing the logger here would fix its level before the local tools set theirs (local/log-level.ts).
 */
const warnCountersDropped = (dropped: number): void =>
  console.warn(JSON.stringify({ level: 'WARN', message: 'day counters dropped after repeated conflicts', dropped }));
let counterDropListener: (dropped: number) => void = warnCountersDropped;
/** Replaces what is told of dropped counters (tests); `undefined` restores the warning line. */
export function onCountersDropped(listener: ((dropped: number) => void) | undefined): void {
  counterDropListener = listener ?? warnCountersDropped;
}

/**
 * The transaction without its day-counter updates, when only those met the conflicts: a counter row is
 * shared by every fact of its client's day and workflow shard, so at a burst it is the item transactions meet on.
 * Undefined when another item conflicted too (the transaction is then failed as before).
 */
function withoutConflictedCounters(command: TransactWriteCommand, reasons: { Code?: string }[]) {
  const items = command.input.TransactItems ?? [];
  const isCounter = (i: number) => isStatsKey(items[i]?.Update?.Key as { pk?: unknown } | undefined);
  const conflicted = reasons.flatMap((r, i) => (r.Code === 'TransactionConflict' ? [i] : []));
  if (conflicted.length === 0 || !conflicted.every(isCounter)) return undefined;
  const kept = items.filter((_, i) => !isCounter(i));
  if (kept.length === 0) return undefined;
  const counters = items.flatMap((item, i) => (isCounter(i) && item.Update ? [item.Update as UpdateCommandInput] : []));
  return { command: new TransactWriteCommand({ ...command.input, TransactItems: kept }), counters };
}

/**
 * Adds counters on their own, after their fact was recorded without them: each its own `UpdateItem` (an `ADD`, no
 * condition), retried while it meets another transaction on the row. Not atomic with the fact any more: a process
 * that dies between the two loses these counts, and a retried request whose first attempt had landed (a timeout)
 * adds twice — both rare, where dropping them lost every count of a burst's conflicts (docs/decisions/0118-counters-added-apart.md).
 */
async function addApart(db: DynamoDBDocumentClient, counters: readonly UpdateCommandInput[]): Promise<void> {
  const failed = await Promise.all(
    counters.map(async (update) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await db.send(new UpdateCommand(update));
          return 0;
        } catch (error) {
          const conflict = (error as Error).name === 'TransactionConflictException';
          if (!conflict || attempt >= MAX_APART_ATTEMPTS) return 1;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** Math.min(attempt, 6)));
        }
      }
    }),
  );
  const dropped = failed.reduce<number>((sum, n) => sum + n, 0);
  if (dropped > 0) counterDropListener(dropped);
}

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
      if (onlyConflicts && attempt >= MAX_TRANSACTION_ATTEMPTS) {
        const withoutCounters = withoutConflictedCounters(command, reasons);
        if (withoutCounters) {
          // The fact matters more than its count: recorded without the day counters that kept conflicting, which
          // are then added on their own (a plain UpdateItem waits its turn on a busy row where a transaction fails).
          await sendTransaction(db, withoutCounters.command);
          await addApart(db, withoutCounters.counters);
          return;
        }
      }
      if (!onlyConflicts || attempt >= MAX_TRANSACTION_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
}
