import { parse } from 'csv-parse/sync';
import { tooLarge } from '../../errors.js';

/** One data row of the file: its fields, or why csv-parse could not read it. */
export interface CsvRecord {
  /** 1-based data row number (the header is not counted; empty rows are), as a client finds it in the file. */
  row: number;
  fields?: string[];
  error?: string;
}

export interface CsvRecords {
  header?: string[];
  records: CsvRecord[];
  /** Data rows with nothing in them (blank lines, `,,,`): numbered, then skipped. */
  emptyRows: number;
}

class RowLimitExceeded extends Error {}

/** Longest first, so CRLF is one line break and not a CR followed by an empty LF line. */
const LINE_ENDINGS = ['\r\n', '\n', '\r'];

/**
 * Parses the CSV text with csv-parse: quotes, delimiters and line breaks inside quoted fields, CRLF, LF or CR (mixed
 * in one file too), a UTF-8 BOM, rows of uneven length. A stray quote inside an unquoted field is kept as text; a record csv-parse
 * cannot read becomes a row with an `error` and the rows around it still count. More than `maxRows` non-empty
 * data rows stops parsing at once with a 413.
 */
export function readCsvRecords(
  text: string,
  options: { delimiter: string; hasHeader: boolean; maxRows: number },
): CsvRecords {
  const out: CsvRecords = { records: [], emptyRows: 0 };
  let row = 0;
  let dataRows = 0;
  let headerPending = options.hasHeader;
  const take = (fields: string[] | undefined, error?: string) => {
    const empty = fields !== undefined && fields.every((f) => f.trim() === '');
    if (headerPending) {
      if (empty) return; // blank lines before the header
      headerPending = false;
      if (fields) {
        out.header = fields;
        return;
      }
    }
    row += 1;
    if (empty) {
      out.emptyRows += 1;
      return;
    }
    dataRows += 1;
    if (dataRows > options.maxRows) throw new RowLimitExceeded();
    out.records.push(error === undefined ? { row, fields } : { row, error });
  };
  try {
    parse(text, {
      bom: true,
      delimiter: options.delimiter,
      // Every line ending, not just the one csv-parse would detect on the first line: a file edited on two systems
      // mixes them, and a detected CRLF would otherwise swallow the LF lines into one record.
      record_delimiter: LINE_ENDINGS,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      skip_records_with_error: true,
      on_record: (record: string[]) => {
        take(record);
        return null;
      },
      on_skip: (error) => {
        take(undefined, describe(error?.code, error?.message));
        return undefined;
      },
    });
  } catch (error) {
    if (error instanceof RowLimitExceeded) {
      throw tooLarge('file', `At most ${options.maxRows} rows per file; split the file`);
    }
    throw error;
  }
  return out;
}

function describe(code: string | undefined, message: string | undefined): string {
  if (code === 'CSV_QUOTE_NOT_CLOSED') {
    return 'A quoted field is never closed: this row and everything after it could not be read (check the quotes)';
  }
  return `This row could not be read as CSV: ${message ?? code ?? 'unknown error'}`;
}
