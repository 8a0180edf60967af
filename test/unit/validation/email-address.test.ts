import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { EMAIL_PATTERN, emailFormat } from '../../../shared/validation/email-address.js';
import { ContactBody, Email } from '../../../shared/domain/contacts/schemas.js';
import { parseContactRow } from '../../../shared/domain/contacts/bulk-row.js';
import { EventBody } from '../../../shared/domain/events/schemas.js';
import { InviteUserBody } from '../../../shared/domain/users/schemas.js';
import { SETTINGS_FIELD_SCHEMAS } from '../../../shared/domain/settings/schemas.js';
import { CreateClientInput } from '../../../shared/domain/clients/create-client.js';

/** Addresses the rule refuses: each breaks DNS's label rule or the document's `format: email`. */
const REFUSED = [
  'x@a0-.example.com',
  'x@example-.com',
  'x@-a.example.com',
  'x@a.-example.com',
  `x@${'a'.repeat(64)}.example.com`,
  'x@example.c0m',
  'x@example',
  '.x@example.com',
  'x.@example.com',
  'x..y@example.com',
  'x@@example.com',
  'x@exa_mple.com',
];
const ACCEPTED = [
  'x@a0.example.com',
  'x@a-0.example.com',
  'ada.lovelace+news@mail.example.co.uk',
  "o'brien@example.ie",
  `x@${'a'.repeat(63)}.io`,
  'x_y-z@1a.example.com',
];

describe('the e-mail rule', () => {
  it.each(REFUSED)('refuses %s', (address) => {
    expect(EMAIL_PATTERN.test(address)).toBe(false);
    expect(z.safeParse(emailFormat(), address).success).toBe(false);
  });

  it.each(ACCEPTED)('accepts %s', (address) => {
    expect(z.safeParse(emailFormat(), address).success).toBe(true);
  });

  // Each schema an address enters by: contacts (one, bulk JSON and CSV rows: parseContactRow), sign-in (Email),
  // invitations, events, settings, the admin CLI's new client.
  const takers: [string, (address: string) => boolean][] = [
    ['Email (sign-in)', (a) => z.safeParse(Email, a).success],
    ['ContactBody', (a) => z.safeParse(ContactBody, { email: a }).success],
    ['a bulk JSON or CSV row', (a) => parseContactRow({ email: a }, 'contacts.0').ok],
    ['InviteUserBody', (a) => z.safeParse(InviteUserBody, { email: a, name: 'X', role: 3 }).success],
    ['EventBody', (a) => z.safeParse(EventBody, { type: 'signup', email: a }).success],
    ['settings email_reply_to', (a) => z.safeParse(SETTINGS_FIELD_SCHEMAS.email_reply_to, a).success],
    ['CreateClientInput', (a) => z.safeParse(CreateClientInput, { email: a, name: 'N' }).success],
  ];

  it.each(takers)('is the rule of %s', (_name, accepts) => {
    expect(REFUSED.filter(accepts)).toEqual([]);
    expect(ACCEPTED.filter((a) => !accepts(a))).toEqual([]);
  });

  it('is the pattern the document states for every e-mail field', () => {
    const document = readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');
    const patterns = new Set<string>();
    JSON.parse(document, (key, value: unknown) => {
      if (value && typeof value === 'object' && (value as { format?: unknown }).format === 'email') {
        patterns.add(String((value as { pattern?: unknown }).pattern));
      }
      return value;
    });
    expect([...patterns]).toEqual([EMAIL_PATTERN.source]);
  });
});
