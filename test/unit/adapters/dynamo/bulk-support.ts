import { expect } from 'vitest';
import { DynamoContactStore } from '../../../../shared/adapters/dynamo/contact-store.js';
import { DynamoIds } from '../../../../shared/adapters/dynamo/ids.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { importContacts } from '../../../../shared/domain/contacts/bulk-import.js';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import { contactRecord } from '../../support/contact-fixtures.js';
import { FakeTable } from './bulk-fake-table.js';
import { DynamoContactWrites } from '../../../../shared/adapters/dynamo/contact-writes.js';

/** Shared fixtures of the bulk adapter tests: a fake table, the real Dynamo adapters over it, seeded contacts. */
export const TABLE = 'test-table';
export const CLIENT = 7;
export const NOW = new Date('2026-03-01T12:00:00.000Z');
export const FAST_BACKOFF = { attempts: 8, baseMs: 1, maxMs: 5 };

export function bulkHarness() {
  const table = new FakeTable();
  const contacts = new DynamoContactStore(table.db, TABLE, FAST_BACKOFF);
  const deps = {
    clock: { now: () => NOW },
    ids: new DynamoIds(table.db, TABLE),
    contacts,
    contactWrites: new DynamoContactWrites(table.db, TABLE, FAST_BACKOFF),
  };
  const run = (rows: unknown[], overwrite = false) =>
    importContacts(deps, CLIENT, { contacts: rows, overwrite_blank_fields: overwrite }, { limit: 1000, createdBy: 1 });
  /** Forget the calls made while seeding. */
  const startCounting = () => {
    table.mock.resetHistory();
    table.waves.reset();
  };
  const requests = () =>
    ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem', 'TransactWriteItems'].reduce((n, c) => n + table.calls(c), 0);
  return { table, contacts, deps, run, startCounting, requests };
}

export const row = (i: number, extra: Record<string, unknown> = {}) => ({
  email: `user${i}@example.com`,
  first_name: `First${i}`,
  client_contact_id: `uid-${i}`,
  ...extra,
});

/** Stores contact `id` (with its e-mail and uid locks) as a previous import would have. */
export function seedContact(table: FakeTable, id: number, fields: Partial<ContactRecord> = {}): ContactRecord {
  const contact = contactRecord({
    id,
    client_id: CLIENT,
    email: `user${id}@example.com`,
    first_name: `First${id}`,
    client_contact_id: `uid-${id}`,
    ...fields,
  });
  for (const [k, v] of Object.entries(contact))
    if (v === undefined) delete (contact as unknown as Record<string, unknown>)[k];
  table.put({ ...keys.contactItem(CLIENT, id), ...contact });
  table.put({ ...keys.emailLock(CLIENT, contact.email), contact_id: id, kind: 'email' });
  if (contact.client_contact_id)
    table.put({ ...keys.uidLock(CLIENT, contact.client_contact_id), contact_id: id, kind: 'uid' });
  return contact;
}

/** Moves the contact id counter past the seeded ids. */
export function seedCounter(table: FakeTable, value: number): void {
  table.put({ ...keys.counter('contact'), value });
}

/** Every contact has its e-mail lock and uid lock pointing at it, and no lock points anywhere else. */
export function expectLocksConsistent(table: FakeTable): ContactRecord[] {
  const contacts = table.list(`CONTACT#${CLIENT}#`) as unknown as ContactRecord[];
  const emailLocks = table.list(`EMAIL#${CLIENT}#`);
  const uidLocks = table.list(`UID#${CLIENT}#`);
  for (const c of contacts) {
    expect(table.get(keys.emailLock(CLIENT, c.email))?.['contact_id'], `e-mail lock of ${c.email}`).toBe(c.id);
    if (c.client_contact_id)
      expect(table.get(keys.uidLock(CLIENT, c.client_contact_id))?.['contact_id'], `uid lock of ${c.email}`).toBe(c.id);
  }
  expect(emailLocks).toHaveLength(contacts.length);
  expect(uidLocks).toHaveLength(contacts.filter((c) => c.client_contact_id).length);
  return contacts;
}
