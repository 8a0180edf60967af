import { describe, expect, it } from 'vitest';
import {
  aliasFor,
  CSV_EXPORTERS,
  detectExporter,
  EXPORT_ALIASES,
  headerKey,
} from '../../../../shared/domain/contacts/csv-aliases.js';
import { CSV_FIELDS, layoutFromHeader, recordToRow } from '../../../../shared/domain/contacts/csv-columns.js';

describe('headerKey', () => {
  it.each(['First Name', 'first_name', 'FIRSTNAME', 'first-name', ' First  Name ', 'first.name', 'First Name:'])(
    'reads %j as the key firstname',
    (header) => {
      expect(headerKey(header)).toBe('firstname');
    },
  );

  it('keeps letters beyond ASCII and digits', () => {
    expect(headerKey('Prénom 2')).toBe('prénom2');
    expect(headerKey('Created (UTC)')).toBe('createdutc');
  });
});

describe('the alias table', () => {
  it('never shadows a contact field name (a field name always means the field)', () => {
    const fieldKeys = new Set(CSV_FIELDS.map(headerKey));
    const shadowing = CSV_EXPORTERS.flatMap((tool) =>
      Object.keys(EXPORT_ALIASES[tool]).filter((header) => fieldKeys.has(headerKey(header))),
    );
    expect(shadowing).toEqual([]);
  });

  it("names the file's exporter as the source of a header several tools share, else the first tool", () => {
    expect(aliasFor(headerKey('Phone Number'), 'hubspot')).toEqual({ target: { field: 'phone' }, tool: 'hubspot' });
    expect(aliasFor(headerKey('Phone Number'), undefined)).toEqual({ target: { field: 'phone' }, tool: 'mailchimp' });
    expect(aliasFor(headerKey('Phone Number'), 'stripe')).toEqual({ target: { field: 'phone' }, tool: 'mailchimp' });
    expect(aliasFor(headerKey('Favourite colour'), undefined)).toBeUndefined();
  });

  it.each([
    [['Email Address', 'First Name', 'MEMBER_RATING', 'LEID'], 'mailchimp'],
    [['Record ID', 'Email'], 'hubspot'],
    [['CONTACT ID', 'EMAIL'], 'brevo'],
    [['Email', 'Klaviyo ID'], 'klaviyo'],
    [['id', 'Email', 'Created (UTC)'], 'stripe'],
    [['email', 'first_name'], undefined],
    [['Record ID', 'Klaviyo ID', 'Email'], undefined],
  ])('detects the exporter of %j as %s', (header, tool) => {
    expect(detectExporter(header)).toBe(tool);
  });
});

describe('layoutFromHeader with aliases', () => {
  it('maps every spelling of a field to it, ignoring case and punctuation', () => {
    // Prepare
    const header = ['E-Mail', 'FIRSTNAME', 'last-name', 'Time Zone', 'Client Contact ID'];

    // Act
    const layout = layoutFromHeader(header);

    // Assess
    expect(layout.columns).toEqual([
      { field: 'email' },
      { field: 'first_name' },
      { field: 'last_name' },
      { field: 'timezone' },
      { field: 'client_contact_id' },
    ]);
    expect(layout.mapping.map((m) => m.source)).toEqual(['field', 'field', 'field', 'field', 'field']);
  });

  it('reports each header in file order: field, alias, custom, ignored on purpose and unknown', () => {
    const layout = layoutFromHeader([
      'Email Address',
      'First Name',
      'MEMBER_RATING',
      'OPTIN_TIME',
      'custom.plan',
      'Shoe size',
      '',
    ]);
    expect(layout.mapping).toEqual([
      { header: 'Email Address', field: 'email', source: 'alias:mailchimp' },
      { header: 'First Name', field: 'first_name', source: 'field' },
      { header: 'MEMBER_RATING', field: 'custom_fields.member_rating', source: 'alias:mailchimp' },
      { header: 'OPTIN_TIME', field: null, source: 'alias:mailchimp' },
      { header: 'custom.plan', field: 'custom_fields.plan', source: 'custom' },
      { header: 'Shoe size', field: null, source: 'unknown' },
      { header: '', field: null, source: 'unknown' },
    ]);
    expect(layout.ignored).toEqual(['OPTIN_TIME', 'Shoe size']);
  });

  it.each([
    [['Email Address', 'Email'], 'Columns "Email Address" and "Email" both map to email; remove or rename one of them'],
    [
      ['email', 'First Name', 'first_name'],
      'Columns "First Name" and "first_name" both map to first_name; remove or rename one of them',
    ],
    [
      ['email', 'First Name', 'Name'],
      'Columns "First Name" and "Name" both map to first_name; remove or rename one of them',
    ],
    [
      ['email', 'SMS', 'Phone Number'],
      'Columns "SMS" and "Phone Number" both map to phone; remove or rename one of them',
    ],
    [
      ['email', 'TAGS', 'custom.tags'],
      'Columns "TAGS" and "custom.tags" both map to custom_fields.tags; remove or rename one of them',
    ],
    [
      ['email', 'Record ID', 'external_id'],
      'Columns "Record ID" and "external_id" both map to external_id; remove or rename one of them',
    ],
  ])('refuses the ambiguous header %j with one 422 item naming both columns', (header, error) => {
    expect(() => layoutFromHeader(header)).toThrowError(
      expect.objectContaining({ status: 422, items: [{ condition: 'format', key: 'file', error }] }),
    );
  });

  it('reports every ambiguity of the header at once', () => {
    expect(() => layoutFromHeader(['Email', 'Name', 'First Name', 'Last Name'])).toThrowError(
      expect.objectContaining({
        status: 422,
        items: [
          {
            condition: 'format',
            key: 'file',
            error: 'Columns "Name" and "First Name" both map to first_name; remove or rename one of them',
          },
          {
            condition: 'format',
            key: 'file',
            error: 'Columns "Name" and "Last Name" both map to last_name; remove or rename one of them',
          },
        ],
      }),
    );
  });
});

describe('recordToRow with aliases', () => {
  it('splits a full name at the first space', () => {
    const layout = layoutFromHeader(['Email', 'Name']);
    expect(recordToRow(['a@x.co', 'Alan Mathison  Turing '], layout)).toEqual({
      row: { email: 'a@x.co', first_name: 'Alan', last_name: 'Mathison  Turing' },
    });
    expect(recordToRow(['a@x.co', 'Cher'], layout)).toEqual({
      row: { email: 'a@x.co', first_name: 'Cher', last_name: '' },
    });
    expect(recordToRow(['a@x.co', ''], layout)).toEqual({ row: { email: 'a@x.co', first_name: '', last_name: '' } });
  });

  it("reads HubSpot's time zone slugs as IANA names and keeps other values as written", () => {
    const layout = layoutFromHeader(['Email', 'Time Zone']);
    expect(recordToRow(['a@x.co', 'america_slash_port_hyphen_au_hyphen_prince'], layout)).toEqual({
      row: { email: 'a@x.co', timezone: 'america/port-au-prince' },
    });
    expect(recordToRow(['a@x.co', 'Europe/Paris'], layout)).toEqual({
      row: { email: 'a@x.co', timezone: 'Europe/Paris' },
    });
  });

  it('puts aliased custom columns in custom_fields and drops the ignored ones', () => {
    const layout = layoutFromHeader(['Email Address', 'MEMBER_RATING', 'OPTIN_TIME', 'TAGS']);
    expect(recordToRow(['a@x.co', '4', '2024-03-14 09:12:31', '"VIP"'], layout)).toEqual({
      row: { email: 'a@x.co', custom_fields: { member_rating: '4', tags: '"VIP"' } },
    });
  });
});
