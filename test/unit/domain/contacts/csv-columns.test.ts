import { describe, expect, it } from 'vitest';
import { HEADERLESS_LAYOUT, layoutFromHeader, recordToRow } from '../../../../shared/domain/contacts/csv-columns.js';

describe('layoutFromHeader', () => {
  it('matches contact fields case-insensitively, reads custom.<name> and lists unknown columns once', () => {
    const layout = layoutFromHeader([' Email ', 'First_Name', 'custom.plan', 'Notes', 'source', 'Notes']);
    expect(layout.columns).toEqual([
      { field: 'email' },
      { field: 'first_name' },
      { custom: 'plan' },
      { ignored: 'Notes' },
      { ignored: 'source' },
      { ignored: 'Notes' },
    ]);
    expect(layout.ignored).toEqual(['Notes', 'source']);
  });

  it.each([
    [['first_name'], 'required', 'The header row has no "email" column'],
    [['email', 'EMAIL'], 'format', 'Column "EMAIL" appears twice in the header'],
    [['email', 'custom.9lives'], 'format', expect.stringContaining('custom field names')],
  ])('refuses the header %j with 422 on file', (header, condition, error) => {
    expect(() => layoutFromHeader(header)).toThrowError(
      expect.objectContaining({ status: 422, items: [{ condition, key: 'file', error }] }),
    );
  });
});

describe('recordToRow', () => {
  const layout = layoutFromHeader(['email', 'is_subscribed', 'custom.plan']);

  it('builds the contact body, reading is_subscribed words', () => {
    expect(recordToRow(['a@x.co', 'No', 'pro'], layout)).toEqual({
      row: { email: 'a@x.co', is_subscribed: false, custom_fields: { plan: 'pro' } },
    });
  });

  it('treats missing trailing columns as absent and trailing empty fields as nothing', () => {
    expect(recordToRow(['a@x.co'], layout)).toEqual({ row: { email: 'a@x.co' } });
    expect(recordToRow(['a@x.co', '', '', '', ''], layout)).toEqual({
      row: { email: 'a@x.co', is_subscribed: '', custom_fields: { plan: '' } },
    });
  });

  it('fails a row with more values than columns (an unquoted delimiter)', () => {
    expect(recordToRow(['a@x.co', 'true', 'pro', 'extra'], layout)).toEqual({
      error: expect.stringContaining('4 fields but the header has 3'),
    });
  });

  it('uses the documented column order without a header', () => {
    expect(recordToRow(['a@x.co', 'Ann', 'Lee', 'Acme', '+1', 'EST', 'u1', 'x1', 'ads'], HEADERLESS_LAYOUT)).toEqual({
      row: {
        email: 'a@x.co',
        first_name: 'Ann',
        last_name: 'Lee',
        company: 'Acme',
        phone: '+1',
        timezone: 'EST',
        client_contact_id: 'u1',
        external_id: 'x1',
        signup_source: 'ads',
      },
    });
  });
});
