import { afterEach, describe, expect, it } from 'vitest';
import { bulkHarness, expectLocksConsistent, row, seedContact, seedCounter } from './bulk-support.js';

/**
 * The bulk import's request budget: 1000 rows, any mix of new and existing, in at most 60 DynamoDB requests and
 * 6 sequential waves — checked against the real adapters (DynamoContactStore, DynamoIds) over a mocked client.
 */
const BUDGET = { requests: 60, waves: 6 };

describe('bulk upsert request budget (1000 rows)', () => {
  let harness: ReturnType<typeof bulkHarness>;
  afterEach(() => harness.table.restore());

  it('creates 1000 new contacts with uids in 10+10 BatchGets, 1 counter update and 31 transactions, 3 waves', async () => {
    // Prepare
    harness = bulkHarness();
    harness.startCounting();
    // Act
    const result = await harness.run(Array.from({ length: 1000 }, (_, i) => row(i + 1)));
    // Assess
    expect(result).toMatchObject({ created: 1000, updated: 0, unchanged: 0, failed: 0 });
    expect(harness.table.calls('BatchGetItem')).toBe(20); // e-mail locks, then the new contacts' uid locks
    expect(harness.table.calls('UpdateItem')).toBe(1); // one block of 1000 ids
    expect(harness.table.calls('TransactWriteItems')).toBe(31); // 3 actions a contact, 33 contacts a transaction
    expect(harness.requests()).toBe(52);
    expect(harness.table.waves.waves).toBe(3);
    expect(expectLocksConsistent(harness.table)).toHaveLength(1000);
    expect(new Set(result.results.map((r) => r.contact_id)).size).toBe(1000);
  });

  it('updates 1000 existing contacts in 10+10 BatchGets and 10 transactions of single updates, 3 waves', async () => {
    harness = bulkHarness();
    for (let id = 1; id <= 1000; id += 1) seedContact(harness.table, id);
    seedCounter(harness.table, 1000);
    harness.startCounting();

    const result = await harness.run(
      Array.from({ length: 1000 }, (_, i) => row(i + 1, { first_name: `Renamed${i + 1}` })),
    );

    expect(result).toMatchObject({ created: 0, updated: 1000, unchanged: 0, failed: 0 });
    expect(harness.table.calls('BatchGetItem')).toBe(20); // e-mail locks, then the contacts
    expect(harness.table.calls('UpdateItem')).toBe(0); // no new ids needed
    expect(harness.table.calls('TransactWriteItems')).toBe(10);
    expect(harness.requests()).toBe(30);
    expect(harness.table.waves.waves).toBe(3);
    expect(result.results[0]).toEqual({
      index: 0,
      email: 'user1@example.com',
      status: 'updated',
      contact_id: 1,
      errors: [],
    });
  });

  it('stays within budget for the costliest mix: every existing contact moving to a new uid', async () => {
    harness = bulkHarness();
    for (let id = 1; id <= 1000; id += 1) seedContact(harness.table, id);
    seedCounter(harness.table, 1000);
    harness.startCounting();

    const result = await harness.run(
      Array.from({ length: 1000 }, (_, i) => row(i + 1, { client_contact_id: `new-uid-${i + 1}` })),
    );

    expect(result).toMatchObject({ updated: 1000, failed: 0 });
    // Update + delete of the old uid lock + put of the new one: 3 actions, 33 contacts a transaction.
    expect(harness.table.calls('TransactWriteItems')).toBe(31);
    expect(harness.requests()).toBe(51);
    expect(harness.requests()).toBeLessThanOrEqual(BUDGET.requests);
    expect(harness.table.waves.waves).toBeLessThanOrEqual(BUDGET.waves);
    expect(expectLocksConsistent(harness.table).every((c) => c.client_contact_id === `new-uid-${c.id}`)).toBe(true);
  });

  it('handles a mix of new, updated, unchanged and invalid rows within budget', async () => {
    harness = bulkHarness();
    for (let id = 1; id <= 500; id += 1) seedContact(harness.table, id);
    seedCounter(harness.table, 500);
    harness.startCounting();
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const n = i + 1;
      if (n <= 200) return row(n); // as stored
      if (n <= 400) return row(n, { company: 'Acme', custom_fields: { plan: 'pro' } });
      if (n <= 500) return row(n, { client_contact_id: `moved-${n}` });
      if (n <= 990) return row(n, { timezone: 'PST' });
      return { email: `broken${n}`, first_name: 'Nope' }; // invalid e-mail
    });

    const result = await harness.run(rows);

    expect(result).toMatchObject({ created: 490, updated: 300, unchanged: 200, failed: 10 });
    expect(result.results[999]).toMatchObject({
      status: 'failed',
      errors: [{ condition: 'format', key: 'contacts.999.email' }],
    });
    expect(harness.requests()).toBeLessThanOrEqual(BUDGET.requests);
    expect(harness.table.waves.waves).toBeLessThanOrEqual(BUDGET.waves);
    const byKind = {
      BatchGetItem: harness.table.calls('BatchGetItem'),
      UpdateItem: harness.table.calls('UpdateItem'),
      PutItem: harness.table.calls('PutItem'),
    };
    // 10 e-mail lock reads + 5 contact reads + 5 uid reads + 1 custom field name read; counters: contacts, custom fields.
    expect(byKind).toEqual({ BatchGetItem: 21, UpdateItem: 2, PutItem: 1 });
    expectLocksConsistent(harness.table);
  });
});
