import { describe, expect, it } from 'vitest';
import { ContactRef } from '../../../../shared/domain/contacts/schemas.js';

/** `{id}` of the contact paths (after the router decoded it): an id, an e-mail, or nothing (→ 404). */
describe('ContactRef', () => {
  it.each([
    ['42', { id: 42 }],
    [' 42 ', { id: 42 }],
    ['Ann@Example.com', { email: 'ann@example.com' }],
    ['', { none: true }],
    ['\u00a0', { none: true }],
    [' \t\u2003 ', { none: true }],
    ['1234567890123456', { none: true }],
    [`${'a'.repeat(250)}@x.co`, { none: true }],
  ])('reads %j as %j', (raw, ref) => {
    expect(ContactRef.parse({ id: raw })).toEqual({ id: ref });
  });
});
