import { randomUUID } from 'node:crypto';
import { TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ContactRecord, ContactWrite, ContactWriteOutcome } from '../../domain/contacts/contact-store.js';
import { backoffDelay, DEFAULT_BACKOFF, isRetryable, isTransient, sleep, type BackoffOptions } from './backoff.js';
import { keys } from './keys.js';

/** TransactWriteItems limits: 100 actions and 4 MB a call (kept well below, by an estimate of the item sizes). */
export const TRANSACTION_MAX_ACTIONS = 100;
const TRANSACTION_MAX_BYTES = 3_500_000;

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** Attributes a bulk update never touches: identity, e-mail (the match key) and creation stamps. */
const FIXED_ATTRIBUTES = new Set([
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'id',
  'client_id',
  'email',
  'created_at',
  'created_by',
]);

/**
 * The transaction actions of one contact write. Create: the contact, its e-mail lock and uid lock, each
 * `attribute_not_exists`. Update: only the attributes that differ (other writers' attributes are left alone),
 * guarded by the e-mail and, when the uid changes, by the old uid; the old uid lock is deleted (if still ours)
 * and the new one created `attribute_not_exists` — so a uid held by another contact cancels, never steals.
 */
export function contactWriteActions(tableName: string, write: ContactWrite): TransactItem[] {
  return write.kind === 'create'
    ? createActions(tableName, write.contact)
    : updateActions(tableName, write.before, write.after);
}

function createActions(tableName: string, contact: ContactRecord): TransactItem[] {
  const notExists = { TableName: tableName, ConditionExpression: 'attribute_not_exists(pk)' };
  const actions: TransactItem[] = [
    {
      Put: { ...notExists, Item: { ...keys.contactItem(contact.client_id, contact.id), ...withoutUndefined(contact) } },
    },
    {
      Put: {
        ...notExists,
        Item: { ...keys.emailLock(contact.client_id, contact.email), contact_id: contact.id, kind: 'email' },
      },
    },
  ];
  if (contact.client_contact_id) actions.push(uidLockPut(tableName, contact));
  return actions;
}

function updateActions(tableName: string, before: ContactRecord, after: ContactRecord): TransactItem[] {
  if (before.id !== after.id || before.client_id !== after.client_id)
    throw new Error('An update keeps the contact id and client');
  const emailChanges = before.email !== after.email;
  const names: Record<string, string> = { '#email': 'email' };
  const values: Record<string, unknown> = { ':email': before.email };
  const set: string[] = [];
  const remove: string[] = [];
  const attributes = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((a) => !FIXED_ATTRIBUTES.has(a))
    .sort();
  let n = 0;
  for (const attribute of attributes) {
    const was = (before as unknown as Record<string, unknown>)[attribute];
    const now = (after as unknown as Record<string, unknown>)[attribute];
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    const name = `#a${n}`;
    names[name] = attribute;
    if (now === undefined) remove.push(name);
    else {
      values[`:a${n}`] = now;
      set.push(`${name} = :a${n}`);
    }
    n += 1;
  }
  if (emailChanges) {
    // The e-mail is a fixed attribute of the diff above (it is the match key of an import); a PATCH may move it.
    names['#new_email'] = 'email';
    values[':new_email'] = after.email;
    set.push('#new_email = :new_email');
  }
  const conditions = ['attribute_exists(pk)', '#email = :email'];
  const uidChanges = (before.client_contact_id ?? '') !== (after.client_contact_id ?? '');
  if (uidChanges) {
    names['#uid'] = 'client_contact_id';
    if (before.client_contact_id) {
      values[':old_uid'] = before.client_contact_id;
      conditions.push('#uid = :old_uid');
    } else conditions.push('attribute_not_exists(#uid)');
  }
  const expression = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  if (expression === '') throw new Error('A bulk update must change something (at least updated_at)');
  const actions: TransactItem[] = [
    {
      Update: {
        TableName: tableName,
        Key: keys.contact(before.client_id, before.id),
        UpdateExpression: expression,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (uidChanges && before.client_contact_id) {
    actions.push({
      Delete: {
        TableName: tableName,
        Key: keys.uidLock(before.client_id, before.client_contact_id),
        ConditionExpression: 'contact_id = :id',
        ExpressionAttributeValues: { ':id': before.id },
      },
    });
  }
  if (uidChanges && after.client_contact_id) actions.push(uidLockPut(tableName, after));
  if (emailChanges) {
    actions.push(
      {
        Delete: {
          TableName: tableName,
          Key: keys.emailLock(before.client_id, before.email),
          ConditionExpression: 'contact_id = :id',
          ExpressionAttributeValues: { ':id': before.id },
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: { ...keys.emailLock(after.client_id, after.email), contact_id: after.id, kind: 'email' },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    );
  }
  return actions;
}

function uidLockPut(tableName: string, contact: ContactRecord): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...keys.uidLock(contact.client_id, contact.client_contact_id!), contact_id: contact.id, kind: 'uid' },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

const withoutUndefined = (record: ContactRecord) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));

interface Batch {
  /** Indexes into the caller's writes. */
  writes: number[];
  actions: TransactItem[];
  /** actions[i] belongs to writes[owner[i]]. */
  owner: number[];
}

/**
 * Packs writes into transactions of at most 100 actions (a write's actions always share one transaction),
 * or one write per transaction when `isolated`.
 */
export function packTransactions(tableName: string, writes: readonly ContactWrite[], isolated = false): Batch[] {
  const batches: Batch[] = [];
  let current: Batch | undefined;
  let bytes = 0;
  writes.forEach((write, index) => {
    const actions = contactWriteActions(tableName, write);
    const size = JSON.stringify(actions).length;
    const full =
      current &&
      (current.actions.length + actions.length > TRANSACTION_MAX_ACTIONS || bytes + size > TRANSACTION_MAX_BYTES);
    if (!current || isolated || full) {
      current = { writes: [], actions: [], owner: [] };
      batches.push(current);
      bytes = 0;
    }
    current.writes.push(index);
    for (const action of actions) {
      current.actions.push(action);
      current.owner.push(current.writes.length - 1);
    }
    bytes += size;
  });
  return batches;
}

/**
 * Sends every transaction in parallel and reports each write's outcome (see ContactWriteOutcome). Transactions
 * cancelled only by throttling or by another in-flight transaction are sent again with backoff (a fresh request
 * token, as the cancelled attempt is final); thrown throttling errors are retried with the same token, so a
 * call that did land is not applied twice. A transaction refused for good (a value the store cannot hold) is
 * sent again one write per transaction, so only the write at fault fails, never its neighbours.
 */
export async function writeContacts(
  db: DynamoDBDocumentClient,
  tableName: string,
  writes: readonly ContactWrite[],
  options: { isolated?: boolean; backoff?: BackoffOptions } = {},
): Promise<ContactWriteOutcome[]> {
  const outcomes: ContactWriteOutcome[] = writes.map(() => ({ status: 'error', message: 'not sent', retryable: true }));
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const batches = packTransactions(tableName, writes, options.isolated);
  await Promise.all(
    batches.map(async (batch) => {
      const result = await sendBatch(db, batch.actions, backoff);
      if (!result.ok && 'error' in result && !result.retryable && batch.writes.length > 1) {
        const alone = await writeContacts(
          db,
          tableName,
          batch.writes.map((i) => writes[i]!),
          { isolated: true, backoff },
        );
        for (const [local, writeIndex] of batch.writes.entries()) outcomes[writeIndex] = alone[local]!;
        return;
      }
      batch.writes.forEach((writeIndex, local) => {
        outcomes[writeIndex] = outcomeOf(result, batch, local);
      });
    }),
  );
  return outcomes;
}

type BatchResult =
  | { ok: true }
  | { ok: false; reasons: CancellationReason[] }
  | { ok: false; error: string; retryable: boolean };

async function sendBatch(
  db: DynamoDBDocumentClient,
  actions: TransactItem[],
  backoff: BackoffOptions,
): Promise<BatchResult> {
  let token = randomUUID();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: actions, ClientRequestToken: token }));
      return { ok: true };
    } catch (error) {
      const cancelled =
        error instanceof TransactionCanceledException || (error as Error)?.name === 'TransactionCanceledException';
      if (isTransient(error) && attempt < backoff.attempts) {
        if (cancelled) token = randomUUID();
        await sleep(backoffDelay(attempt, backoff));
        continue;
      }
      if (cancelled) return { ok: false, reasons: (error as TransactionCanceledException).CancellationReasons ?? [] };
      const description = `${(error as Error)?.name ?? 'Error'}: ${(error as Error)?.message ?? String(error)}`;
      return { ok: false, error: description, retryable: isRetryable(error) };
    }
  }
}

/** Cancellation codes that say "not now", not "never": the write may land when sent again. */
const RETRYABLE_CANCELLATIONS = ['ThrottlingError', 'TransactionConflict', 'ProvisionedThroughputExceeded'];

function outcomeOf(result: BatchResult, batch: Batch, local: number): ContactWriteOutcome {
  if (result.ok) return { status: 'written' };
  if ('error' in result) return { status: 'error', message: result.error, retryable: result.retryable };
  const codes = batch.owner.flatMap((owner, i) => (owner === local ? [result.reasons[i]?.Code ?? 'None'] : []));
  if (codes.includes('ConditionalCheckFailed')) return { status: 'conflict' };
  const own = codes.find((c) => c !== 'None');
  // ValidationError (an item too large, a number out of range): this write is refused as it is.
  if (own && !RETRYABLE_CANCELLATIONS.includes(own))
    return { status: 'error', message: `transaction cancelled: ${own}`, retryable: false };
  return { status: 'cancelled' };
}
