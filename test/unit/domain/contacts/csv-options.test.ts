import { describe, expect, it } from 'vitest';
import { parseCsvImportOptions } from '../../../../shared/domain/contacts/csv-options.js';

describe('parseCsvImportOptions', () => {
  it('defaults to a header, commas, no overwriting and no default time zone', () => {
    expect(parseCsvImportOptions({})).toEqual({ has_header: true, delimiter: ',', overwrite_blank_fields: false });
  });

  it.each([
    [{ delimiter: '\t' }, { delimiter: '\t' }],
    [{ delimiter: '\\t' }, { delimiter: '\t' }],
    [{ delimiter: 'tab' }, { delimiter: '\t' }],
    [{ delimiter: ';' }, { delimiter: ';' }],
    [
      { has_header: 'false', overwrite_blank_fields: 'TRUE' },
      { has_header: false, overwrite_blank_fields: true },
    ],
    [{ default_timezone: 'pst' }, { default_timezone: 'America/Los_Angeles' }],
    [{ default_timezone: 'Asia/Singapore' }, { default_timezone: 'Asia/Singapore' }],
  ])('reads %j', (fields, expected) => {
    expect(parseCsvImportOptions(fields)).toMatchObject(expected);
  });

  it('reports every bad field at once with 422', () => {
    expect(() =>
      parseCsvImportOptions({ has_header: 'maybe', delimiter: ';;', default_timezone: 'Moon/Base' }),
    ).toThrowError(
      expect.objectContaining({
        status: 422,
        items: [
          expect.objectContaining({ key: 'has_header' }),
          expect.objectContaining({ condition: 'format', key: 'delimiter' }),
          expect.objectContaining({ condition: 'format', key: 'default_timezone' }),
        ],
      }),
    );
  });
});
