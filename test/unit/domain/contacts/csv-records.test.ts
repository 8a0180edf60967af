import { describe, expect, it } from 'vitest';
import { readCsvRecords } from '../../../../shared/domain/contacts/csv-records.js';
import { AppError } from '../../../../shared/errors.js';

const read = (text: string, options: Partial<Parameters<typeof readCsvRecords>[1]> = {}) =>
  readCsvRecords(text, { delimiter: ',', hasHeader: true, maxRows: 10, ...options });

describe('readCsvRecords', () => {
  it('reads a BOM, CRLF, quoted delimiters, quotes and line breaks', () => {
    const parsed = read('\ufeffemail,first_name\r\n"a@x.co","Smith, ""Jr""\r\nJohn"\r\nb@x.co,5" screen\r\n');
    expect(parsed.header).toEqual(['email', 'first_name']);
    expect(parsed.records).toEqual([
      { row: 1, fields: ['a@x.co', 'Smith, "Jr"\r\nJohn'] },
      { row: 2, fields: ['b@x.co', '5" screen'] },
    ]);
  });

  it('splits on every line ending when one file mixes CRLF, LF and CR', () => {
    const parsed = read('email,first_name\r\na@x.co,Ann\nb@x.co,Bob\rc@x.co,"Cy\nDee"\r\n');
    expect(parsed.records).toEqual([
      { row: 1, fields: ['a@x.co', 'Ann'] },
      { row: 2, fields: ['b@x.co', 'Bob'] },
      { row: 3, fields: ['c@x.co', 'Cy\nDee'] },
    ]);
  });

  it.each([
    [';', 'a@x.co;Ann'],
    ['\t', 'a@x.co\tAnn'],
  ])('splits on %j', (delimiter, line) => {
    expect(read(line, { delimiter, hasHeader: false }).records).toEqual([{ row: 1, fields: ['a@x.co', 'Ann'] }]);
  });

  it('numbers data rows from 1 after the header, counting empty rows but not returning them', () => {
    const parsed = read('email\n\na@x.co\n,\nb@x.co\n');
    expect(parsed.records.map((r) => r.row)).toEqual([2, 4]);
    expect(parsed.emptyRows).toBe(2);
  });

  it('turns an unterminated quote into a failed row instead of failing the file', () => {
    const parsed = read('email\na@x.co\n"b@x.co,Bob\nc@x.co\n');
    expect(parsed.records).toEqual([
      { row: 1, fields: ['a@x.co'] },
      { row: 2, error: expect.stringContaining('never closed') },
    ]);
  });

  it('stops at the row limit with a 413 on file', () => {
    const error = (() => {
      try {
        read('email\na\nb\nc\n', { maxRows: 2 });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 413, items: [{ condition: 'max', key: 'file' }] });
  });
});
