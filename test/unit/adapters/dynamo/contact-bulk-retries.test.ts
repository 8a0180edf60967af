import { ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { bulkHarness, CLIENT, expectLocksConsistent, row, seedContact, seedCounter } from './bulk-support.js';

/**
 * Throttling, UnprocessedKeys, lost responses and races during a bulk upsert: every row still lands exactly once,
 * and only rows that were written are reported created or updated.
 */
describe('bulk upsert under throttling and races', () => {
  let harness: ReturnType<typeof bulkHarness>;
  afterEach(() => harness.table.restore());

  it('lands every row exactly once through UnprocessedKeys, throttled reads and twice-throttled transactions', async () => {
    // Prepare
    harness = bulkHarness();
    for (let id = 1; id <= 300; id += 1) seedContact(harness.table, id);
    seedCounter(harness.table, 300);
    harness.startCounting();
    let batchGets = 0;
    const attempts = new Map<string, number>();
    let transactions = 0;
    harness.table.injections.before = (command, input) => {
      if (command === 'BatchGetItem') {
        batchGets += 1;
        if (batchGets % 2 === 1) return 'unprocess-half'; // every other read comes back half unprocessed
        if (batchGets % 7 === 0)
          throw new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
      }
      if (command === 'TransactWriteItems') {
        // Every transaction is throttled twice: first thrown, then cancelled by a throttled item.
        transactions += 1;
        const items = JSON.stringify(input.TransactItems);
        const attempt = (attempts.get(items) ?? 0) + 1;
        attempts.set(items, attempt);
        if (attempt === 1) throw new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
        if (attempt === 2) {
          throw new TransactionCanceledException({
            message: 'Transaction cancelled',
            $metadata: {},
            CancellationReasons: input.TransactItems.map((_: unknown, i: number) => ({
              Code: i === 0 ? 'ThrottlingError' : 'None',
            })),
          });
        }
      }
    };
    const rows = Array.from({ length: 1000 }, (_, i) => row(i + 1, { company: 'Acme' }));

    // Act
    const result = await harness.run(rows);

    // Assess
    expect(result).toMatchObject({ created: 700, updated: 300, unchanged: 0, failed: 0 });
    expect(batchGets).toBeGreaterThan(20);
    expect(harness.table.tokens.size).toBe(25); // 22 transactions of 33 creates, 3 of 100 updates
    expect(transactions).toBe(3 * 25);
    const contacts = expectLocksConsistent(harness.table);
    expect(contacts).toHaveLength(1000);
    for (const c of contacts)
      expect(harness.table.writes.get(`${keys.contact(CLIENT, c.id).pk}|${keys.contact(CLIENT, c.id).sk}`)).toBe(1);
    expect(contacts.every((c) => c.company === 'Acme')).toBe(true);
    // Sending the same rows again changes nothing: nothing was half-written or written twice.
    harness.table.injections.before = undefined;
    expect(await harness.run(rows)).toMatchObject({ created: 0, updated: 0, unchanged: 1000 });
  });

  it('does not apply a transaction twice when its response is lost: the retry carries the same token', async () => {
    harness = bulkHarness();
    let lost = false;
    harness.table.injections.after = (command) => {
      if (command === 'TransactWriteItems' && !lost) {
        lost = true; // applied, but the caller only sees a 500
        throw Object.assign(new Error('We encountered an internal error'), { name: 'InternalServerError' });
      }
    };

    const result = await harness.run([row(1), row(2)]);

    expect(result).toMatchObject({ created: 2, failed: 0 });
    expect(harness.table.replays).toBe(1);
    const contacts = expectLocksConsistent(harness.table);
    expect(contacts).toHaveLength(2);
    for (const c of contacts)
      expect(harness.table.writes.get(`${keys.contact(CLIENT, c.id).pk}|${keys.contact(CLIENT, c.id).sk}`)).toBe(1);
  });

  it('re-decides only the row whose e-mail was taken meanwhile; the rest of its transaction is sent again', async () => {
    harness = bulkHarness();
    seedCounter(harness.table, 100);
    let raced = false;
    harness.table.injections.before = (command) => {
      if (command === 'TransactWriteItems' && !raced) {
        raced = true; // a single create of row 2's e-mail lands between our read and our write
        seedContact(harness.table, 5000, {
          email: 'user2@example.com',
          client_contact_id: undefined,
          first_name: 'Other',
        });
      }
    };

    const result = await harness.run([row(1), row(2), row(3)]);

    expect(result).toMatchObject({ created: 2, updated: 1, failed: 0 });
    expect(result.results[1]).toEqual({
      index: 1,
      email: 'user2@example.com',
      status: 'updated',
      contact_id: 5000,
      errors: [],
    });
    const contacts = expectLocksConsistent(harness.table);
    expect(contacts.map((c) => c.email).sort()).toEqual([
      'user1@example.com',
      'user2@example.com',
      'user3@example.com',
    ]);
    expect(contacts.find((c) => c.id === 5000)).toMatchObject({ first_name: 'First2', client_contact_id: 'uid-2' });
  });

  it('fails the row whose new uid belongs to a contact outside the request, without stealing it', async () => {
    harness = bulkHarness();
    seedContact(harness.table, 1);
    seedContact(harness.table, 2);
    seedContact(harness.table, 9, { client_contact_id: 'taken' });
    seedCounter(harness.table, 9);

    const result = await harness.run([
      row(1, { client_contact_id: 'taken' }),
      row(2, { first_name: 'Renamed' }),
      row(3),
    ]);

    expect(result).toMatchObject({ created: 1, updated: 1, failed: 1 });
    expect(result.results[0]).toEqual({
      index: 0,
      email: 'user1@example.com',
      status: 'failed',
      contact_id: null,
      errors: [
        {
          condition: 'unique',
          key: 'contacts.0.client_contact_id',
          error: 'This client_contact_id belongs to another contact',
        },
      ],
    });
    expect(harness.table.get(keys.uidLock(CLIENT, 'taken'))?.['contact_id']).toBe(9);
    expect(harness.table.get(keys.contact(CLIENT, 1))?.['client_contact_id']).toBe('uid-1');
    expectLocksConsistent(harness.table);
  });
});
