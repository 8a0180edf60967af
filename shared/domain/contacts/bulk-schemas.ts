import * as z from '../../validation/zod.js';

/**
 * Body of POST /client/contacts/bulk. Rows stay `unknown` here: each is validated on its own (bulk-row.ts), so
 * one bad row fails alone, and the row limit is checked before any row is looked at.
 */
export const BulkContactsBody = z.object({
  contacts: z
    .array(z.unknown(), { error: (i) => (i.input === undefined ? 'contacts is required' : 'contacts must be an array') })
    .check(z.minLength(1, 'At least one contact is required')),
  overwrite_blank_fields: z._default(z.boolean({ error: 'Must be a boolean' }), false),
});
export type BulkContactsBody = z.output<typeof BulkContactsBody>;
