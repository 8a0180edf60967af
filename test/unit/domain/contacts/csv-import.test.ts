import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { importContactsCsv } from '../../../../shared/domain/contacts/csv-import.js';
import { parseCsvImportOptions } from '../../../../shared/domain/contacts/csv-options.js';
import { bulkHarness, CLIENT, seedContact, seedCounter } from '../../adapters/dynamo/bulk-support.js';

describe('importContactsCsv', () => {
  let harness: ReturnType<typeof bulkHarness>;
  afterEach(() => harness.table.restore());
  const csv = (text: string, fields: Record<string, string> = {}) =>
    importContactsCsv(
      harness.deps,
      CLIENT,
      { text, options: parseCsvImportOptions(fields) },
      { limit: 1000, createdBy: 1 },
    );

  it('imports rows as source import, with the default time zone, and reports rows by data row number', async () => {
    harness = bulkHarness();
    const result = await csv('email,first_name,timezone,Notes\nann@x.co,Ann,,vip\nbob@x.co,Bob,Mars/Base,\n', {
      default_timezone: 'EST',
    });
    expect(result).toMatchObject({ created: 1, failed: 1, ignoredColumns: ['Notes'], emptyRows: 0 });
    expect(result.results[1]).toEqual({
      index: 2,
      email: 'bob@x.co',
      status: 'failed',
      contact_id: null,
      errors: [
        { condition: 'format', key: 'rows.2.timezone', error: 'Must be an IANA time zone name such as Europe/Paris' },
      ],
    });
    expect(harness.table.get(keys.contact(CLIENT, result.results[0]!.contact_id!))).toMatchObject({
      first_name: 'Ann',
      source: 2,
      timezone: 'America/New_York',
    });
  });

  it("keeps an existing contact's source and time zone; only empty cells with overwrite clear values", async () => {
    harness = bulkHarness();
    seedContact(harness.table, 1, { last_name: 'Lee', timezone: 'Europe/Paris' });
    seedCounter(harness.table, 1);
    const keep = await csv('email,last_name\nuser1@example.com,\n', { default_timezone: 'JST' });
    expect(keep.results[0]).toMatchObject({ status: 'unchanged', contact_id: 1 });
    const clear = await csv('email,last_name\nuser1@example.com,\n', { overwrite_blank_fields: 'true' });
    expect(clear.results[0]).toMatchObject({ status: 'updated' });
    expect(harness.table.get(keys.contact(CLIENT, 1))).toMatchObject({ source: 1, timezone: 'Europe/Paris' });
    expect(harness.table.get(keys.contact(CLIENT, 1))?.['last_name']).toBeUndefined();
  });

  it.each([
    ['email\n', 'The file has no data rows'],
    ['', 'The file is empty: expected a header row and data rows'],
  ])('answers 422 on file for %j', async (text, error) => {
    harness = bulkHarness();
    await expect(csv(text)).rejects.toMatchObject({
      status: 422,
      items: [{ condition: 'required', key: 'file', error }],
    });
  });
});
