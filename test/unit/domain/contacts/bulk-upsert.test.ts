import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { AppError } from '../../../../shared/errors.js';
import {
  bulkHarness,
  CLIENT,
  expectLocksConsistent,
  row,
  seedContact,
  seedCounter,
} from '../../adapters/dynamo/bulk-support.js';

/** The bulk engine's row semantics (duplicates, uid ownership, limits), run over the real adapters on a fake table. */
describe('bulk upsert rows', () => {
  let harness: ReturnType<typeof bulkHarness>;
  afterEach(() => harness.table.restore());

  it('applies rows with the same e-mail in order: the later row wins each field it sets, one write, both results say so', async () => {
    harness = bulkHarness();
    const result = await harness.run([
      { email: 'dup@example.com', first_name: 'Early', company: 'Acme' },
      row(2),
      { email: 'DUP@example.com', first_name: 'Late' },
    ]);
    expect(result).toMatchObject({ created: 2, updated: 1, unchanged: 0, failed: 0 });
    const [first, , last] = result.results;
    expect(first).toEqual({
      index: 0,
      email: 'dup@example.com',
      status: 'created',
      contact_id: first!.contact_id,
      errors: [],
      duplicates: [2],
    });
    expect(last).toEqual({
      index: 2,
      email: 'dup@example.com',
      status: 'updated',
      contact_id: first!.contact_id,
      errors: [],
      duplicates: [0],
    });
    const stored = harness.table.get(keys.contact(CLIENT, first!.contact_id!));
    expect(stored).toMatchObject({ first_name: 'Late', company: 'Acme' });
    expect(harness.table.calls('TransactWriteItems')).toBe(1);
    expectLocksConsistent(harness.table);
  });

  it('reports a duplicate that repeats the first row as unchanged', async () => {
    harness = bulkHarness();
    const result = await harness.run([row(1), row(1)]);
    expect(result.results.map((r) => r.status)).toEqual(['created', 'unchanged']);
  });

  it('gives a uid to the earliest row that claims it; a later row with another e-mail fails on client_contact_id', async () => {
    harness = bulkHarness();
    const result = await harness.run([
      row(1, { client_contact_id: 'shared' }),
      row(2, { client_contact_id: 'shared' }),
    ]);
    expect(result).toMatchObject({ created: 1, failed: 1 });
    expect(result.results[1]).toEqual({
      index: 1,
      email: 'user2@example.com',
      status: 'failed',
      contact_id: null,
      errors: [
        {
          condition: 'unique',
          key: 'contacts.1.client_contact_id',
          error: 'This client_contact_id is already set by contacts.0 (another e-mail) in this request',
        },
      ],
    });
  });

  it('fails a new contact whose uid another contact holds, and still creates the rest', async () => {
    harness = bulkHarness();
    seedContact(harness.table, 1);
    seedCounter(harness.table, 1);
    const result = await harness.run([row(2, { client_contact_id: 'uid-1' }), row(3)]);
    expect(result.results.map((r) => r.status)).toEqual(['failed', 'created']);
    expect(result.results[0]!.errors[0]).toMatchObject({ condition: 'unique', key: 'contacts.0.client_contact_id' });
    expect(harness.table.get(keys.emailLock(CLIENT, 'user2@example.com'))).toBeUndefined();
    expectLocksConsistent(harness.table);
  });

  it('moves a uid lock when a contact changes its uid and frees it when the uid is cleared', async () => {
    harness = bulkHarness();
    seedContact(harness.table, 1);
    seedContact(harness.table, 2);
    seedCounter(harness.table, 2);
    const result = await harness.run(
      [row(1, { client_contact_id: 'uid-new' }), row(2, { client_contact_id: '' })],
      true,
    );
    expect(result).toMatchObject({ updated: 2 });
    expect(harness.table.get(keys.uidLock(CLIENT, 'uid-1'))).toBeUndefined();
    expect(harness.table.get(keys.uidLock(CLIENT, 'uid-2'))).toBeUndefined();
    expect(harness.table.get(keys.uidLock(CLIENT, 'uid-new'))?.['contact_id']).toBe(1);
    expectLocksConsistent(harness.table);
  });

  it('answers 413 for more rows than the limit and sends no request at all', async () => {
    harness = bulkHarness();
    harness.startCounting();
    const error = await harness.run(Array.from({ length: 1001 }, (_, i) => row(i))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 413, items: [{ condition: 'max', key: 'contacts' }] });
    expect(harness.requests()).toBe(0);
  });

  it("never reads or writes another client's contacts: the same e-mail elsewhere is a new contact here", async () => {
    harness = bulkHarness();
    harness.table.put({ ...keys.emailLock(CLIENT + 1, 'user1@example.com'), contact_id: 1, kind: 'email' });
    harness.table.put({ ...keys.contact(CLIENT + 1, 1), id: 1, client_id: CLIENT + 1, email: 'user1@example.com' });
    seedCounter(harness.table, 1);
    const result = await harness.run([row(1)]);
    expect(result.results[0]).toMatchObject({ status: 'created' });
    expect(result.results[0]!.contact_id).not.toBe(1);
    expect(harness.table.get(keys.contact(CLIENT + 1, 1))).toEqual({
      ...keys.contact(CLIENT + 1, 1),
      id: 1,
      client_id: CLIENT + 1,
      email: 'user1@example.com',
    });
  });
});
