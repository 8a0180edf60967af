/**
 * The benchmark's workloads: the same 1000 contacts brought in three ways (one POST /client/contacts each, one
 * bulk JSON request, one CSV upload), each against its own fresh client, then sent again as updates.
 */
export interface BenchContact {
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  timezone: string;
  client_contact_id: string;
}

export function benchContacts(count: number, firstNameSuffix = ''): BenchContact[] {
  return Array.from({ length: count }, (_, i) => ({
    email: `bench.user${i}@example.com`,
    first_name: `First${i}${firstNameSuffix}`,
    last_name: `Last${i}`,
    company: i % 3 === 0 ? 'Acme, Inc.' : 'Initech',
    timezone: ['America/New_York', 'Europe/Paris', 'Asia/Singapore'][i % 3]!,
    client_contact_id: `crm-${i}`,
  }));
}

const CSV_COLUMNS: (keyof BenchContact)[] = [
  'email',
  'first_name',
  'last_name',
  'company',
  'timezone',
  'client_contact_id',
];

/** The same contacts as a CSV file (header row, quoted where needed, CRLF like a spreadsheet export). */
export function toCsv(contacts: BenchContact[]): string {
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return (
    [CSV_COLUMNS.join(','), ...contacts.map((c) => CSV_COLUMNS.map((k) => quote(c[k])).join(','))].join('\r\n') + '\r\n'
  );
}

export type Method = 'single' | 'bulk' | 'csv';

/** One API request of the benchmark (Bearer key, JSON or multipart body), answered with status and parsed body. */
export type Send = (
  method: string,
  path: string,
  key: string,
  body: { json?: unknown; form?: FormData },
) => Promise<{ status: number; body: any }>;
export type Phase = 'create' | 'update';

/** What each method sends; updates by `single` go through the bulk route one row at a time (no single-contact update route exists). */
export function describeMethod(method: Method, phase: Phase, rows: number): string {
  if (method === 'single') {
    return phase === 'create'
      ? `${rows} × POST /client/contacts, in sequence`
      : `${rows} × POST /client/contacts/bulk with 1 row, in sequence`;
  }
  return method === 'bulk'
    ? `1 × POST /client/contacts/bulk (${rows} rows)`
    : `1 × POST /client/contacts/bulk/csv (${rows} rows)`;
}
