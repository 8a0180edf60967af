import { describe, expect, it } from 'vitest';
import { parseContactRow } from '../../../../shared/domain/contacts/bulk-row.js';

describe('parseContactRow', () => {
  it('splits given values from blank ones ("" or null) and leaves absent fields out of both', () => {
    const parsed = parseContactRow(
      {
        email: ' Ann@Example.COM ',
        first_name: 'Ann',
        last_name: '',
        company: null,
        custom_fields: { plan: 'pro', seats: '' },
      },
      'contacts.0',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.patch.values).toEqual({
      email: 'ann@example.com',
      first_name: 'Ann',
      custom_fields: { plan: 'pro' },
    });
    expect([...parsed.patch.blanks].sort()).toEqual(['company', 'last_name']);
    expect([...parsed.patch.blankCustomFields]).toEqual(['seats']);
  });

  it('reports every problem of the row with keys prefixed by its position', () => {
    const parsed = parseContactRow({ email: 'not-an-address', timezone: 'Mars/Olympus', source: 'fax' }, 'contacts.3');
    expect(parsed).toEqual({
      ok: false,
      email: 'not-an-address',
      errors: [
        { condition: 'format', key: 'contacts.3.email', error: 'Must be a valid e-mail address' },
        {
          condition: 'format',
          key: 'contacts.3.timezone',
          error: 'Must be an IANA time zone name such as Europe/Paris',
        },
        {
          condition: 'format',
          key: 'contacts.3.source',
          error: 'Must be one of unknown, api, import, form, app or an integer 0 to 4',
        },
      ],
    });
  });

  it.each([
    [{ first_name: 'No e-mail' }, 'required'],
    [{ email: '' }, 'required'],
    [{ email: null }, 'required'],
  ])('requires an e-mail: %j', (raw, condition) => {
    const parsed = parseContactRow(raw, 'rows.2');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors[0]).toMatchObject({ condition, key: 'rows.2.email' });
  });

  it('accepts time zone aliases and refuses a subscription contradiction', () => {
    const ok = parseContactRow({ email: 'a@b.co', timezone: 'sgt' }, 'rows.1');
    expect(ok.ok && ok.patch.values.timezone).toBe('Asia/Singapore');
    const bad = parseContactRow(
      { email: 'a@b.co', is_subscribed: true, unsubscribed_at: '2026-01-01T00:00:00Z' },
      'contacts.4',
    );
    expect(bad).toMatchObject({ ok: false, errors: [{ condition: 'format', key: 'contacts.4.unsubscribed_at' }] });
  });

  it('fails a row that is not an object', () => {
    expect(parseContactRow('a@b.co', 'contacts.1')).toEqual({
      ok: false,
      email: null,
      errors: [{ condition: 'type', key: 'contacts.1', error: 'Each contact must be an object' }],
    });
  });
});
