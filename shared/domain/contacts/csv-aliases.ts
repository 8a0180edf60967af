import type { CsvField } from './csv-columns.js';

/**
 * The header names of the contact exports people bring from other tools, and what each means here (docs/api-guide.md "Bulk
 * import", docs/decisions/0057-csv-exports-of-other-tools.md "CSV exports of other tools"). A header matches after `headerKey`: case, spaces and
 * punctuation do not count, so `First Name`, `first_name`, `FIRSTNAME` and `first-name` are one key.
 *
 * Headers that already read as a contact field once normalised (`First Name`, `EMAIL`, `TIMEZONE`, `Time Zone`,
 * `Phone`, `Company`) need no alias and are not listed.
 */
export const CSV_EXPORTERS = ['mailchimp', 'hubspot', 'brevo', 'klaviyo', 'stripe'] as const;
export type CsvExporter = (typeof CSV_EXPORTERS)[number];

/** A contact field; the full name split into first and last name; a custom field; or a column dropped on purpose. */
export type AliasTarget = { field: CsvField } | { fullName: true } | { custom: string } | { ignore: true };

const IGNORE = { ignore: true } as const;

/** Each tool's export headers, spelled as the tool writes them. */
export const EXPORT_ALIASES: Readonly<Record<CsvExporter, Readonly<Record<string, AliasTarget>>>> = {
  // Audience export (subscribed_members_export_*.csv): fixed columns after the audience's merge fields.
  mailchimp: {
    'Email Address': { field: 'email' },
    'Phone Number': { field: 'phone' },
    EUID: { field: 'external_id' },
    Address: { custom: 'address' },
    Birthday: { custom: 'birthday' },
    MEMBER_RATING: { custom: 'member_rating' },
    CC: { custom: 'country_code' },
    REGION: { custom: 'region' },
    TAGS: { custom: 'tags' },
    OPTIN_TIME: IGNORE,
    OPTIN_IP: IGNORE,
    CONFIRM_TIME: IGNORE,
    CONFIRM_IP: IGNORE,
    LATITUDE: IGNORE,
    LONGITUDE: IGNORE,
    GMTOFF: IGNORE,
    DSTOFF: IGNORE,
    LAST_CHANGED: IGNORE,
    LEID: IGNORE,
    // The team's own remarks about the subscriber: not for personalisation, and possibly sensitive.
    NOTES: IGNORE,
  },
  // Contacts export: property labels as column names.
  hubspot: {
    'Record ID': { field: 'external_id' },
    'Phone Number': { field: 'phone' },
    'Company Name': { field: 'company' },
    'Original Source': { field: 'signup_source' },
    'Mobile Phone Number': { custom: 'mobile_phone' },
    'Job Title': { custom: 'job_title' },
    'Lifecycle Stage': { custom: 'lifecycle_stage' },
    City: { custom: 'city' },
    'State/Region': { custom: 'region' },
    'Country/Region': { custom: 'country' },
    'Postal Code': { custom: 'postal_code' },
    'Create Date': IGNORE,
    'Last Modified Date': IGNORE,
    'Last Activity Date': IGNORE,
  },
  // Contacts export: attribute names, `;`-separated.
  brevo: {
    'CONTACT ID': { field: 'external_id' },
    SMS: { field: 'phone' },
    EXT_ID: { field: 'client_contact_id' },
    CONTACT_TIMEZONE: { field: 'timezone' },
    JOB_TITLE: { custom: 'job_title' },
    LANDLINE_NUMBER: { custom: 'landline_number' },
    WHATSAPP: { custom: 'whatsapp' },
    ADDED_TIME: IGNORE,
    MODIFIED_TIME: IGNORE,
  },
  // List or segment export: profile property labels.
  klaviyo: {
    'Klaviyo ID': { field: 'external_id' },
    'Phone Number': { field: 'phone' },
    Organization: { field: 'company' },
    Title: { custom: 'job_title' },
    Address: { custom: 'address' },
    'Address 2': { custom: 'address_2' },
    City: { custom: 'city' },
    'State / Region': { custom: 'region' },
    Country: { custom: 'country' },
    'Zip Code': { custom: 'postal_code' },
    Latitude: IGNORE,
    Longitude: IGNORE,
    'Profile Created On': IGNORE,
    'Date Added': IGNORE,
  },
  // Customers export from the Dashboard; metadata columns are `<key> (metadata)` and stay unknown.
  stripe: {
    id: { field: 'external_id' },
    Name: { fullName: true },
    Description: { custom: 'description' },
    'Created (UTC)': IGNORE,
  },
};

/** Headers only one tool exports: a file that has one of them (and no other tool's) came from that tool. */
const SIGNATURES: Readonly<Record<CsvExporter, readonly string[]>> = {
  mailchimp: ['MEMBER_RATING', 'LEID', 'EUID'],
  hubspot: ['Record ID'],
  brevo: ['CONTACT ID'],
  klaviyo: ['Klaviyo ID'],
  stripe: ['Created (UTC)'],
};

/** The matching key of a header: lower case, letters and digits only. */
export function headerKey(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

interface KnownAlias {
  target: AliasTarget;
  /** The tools whose export has this header, in CSV_EXPORTERS order. */
  tools: CsvExporter[];
}

/** The table by key. Two tools spelling one key with different meanings would make a header mean two things. */
const BY_KEY = new Map<string, KnownAlias>();
for (const tool of CSV_EXPORTERS) {
  for (const [header, target] of Object.entries(EXPORT_ALIASES[tool])) {
    const key = headerKey(header);
    const known = BY_KEY.get(key);
    if (known && JSON.stringify(known.target) !== JSON.stringify(target)) {
      throw new Error(`CSV alias "${header}" (${tool}) means something else for ${known.tools.join(', ')}`);
    }
    if (known) known.tools.push(tool);
    else BY_KEY.set(key, { target, tools: [tool] });
  }
}

/** The tool that wrote a header row, when exactly one tool's signature headers are in it. */
export function detectExporter(header: readonly string[]): CsvExporter | undefined {
  const keys = new Set(header.map(headerKey));
  const found = CSV_EXPORTERS.filter((tool) => SIGNATURES[tool].some((name) => keys.has(headerKey(name))));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * What a header means as an alias, and whose table it came from: the file's exporter when its table has the header
 * (`Phone Number` in a HubSpot file is HubSpot's), else the first tool that exports it.
 */
export function aliasFor(
  key: string,
  exporter: CsvExporter | undefined,
): { target: AliasTarget; tool: CsvExporter } | undefined {
  const known = BY_KEY.get(key);
  if (!known) return undefined;
  const tool = exporter !== undefined && known.tools.includes(exporter) ? exporter : known.tools[0]!;
  return { target: known.target, tool };
}
