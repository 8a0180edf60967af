import * as z from '../../validation/zod.js';
import { documentedAs } from '../../validation/documented-as.js';
import { BLANKABLE_FIELDS } from './bulk-row.js';
import { ContactBody, UNSUBSCRIBED_AT_RULE } from './schemas.js';

/**
 * One import row (and the PATCH of a contact) as the document shows it: the contact body, where each field an empty
 * value clears may also be `null` (`""` clears it too). The rows are parsed one by one (bulk-row.ts), so this schema
 * only documents them; it accepts nothing that row parsing refuses.
 */
export const ContactRowDocument = z.object(
  Object.fromEntries(
    Object.entries(ContactBody.shape).map(([name, schema]) => {
      if (!(BLANKABLE_FIELDS as readonly string[]).includes(name)) return [name, schema];
      const inner = (schema as z.ZodMiniOptional)._zod.def.innerType;
      return [name, z.optional(z.nullable(inner))];
    }),
  ) as typeof ContactBody.shape,
);

/**
 * Body of POST /client/contacts/bulk. Rows stay `unknown` here: each is validated on its own (bulk-row.ts), so
 * one bad row fails alone, and the row limit is checked before any row is looked at.
 */
export const BulkContactsBody = documentedAs(
  z.object({
    contacts: z
      .array(z.unknown(), {
        error: (i) => (i.input === undefined ? 'contacts is required' : 'contacts must be an array'),
      })
      .check(z.minLength(1, 'At least one contact is required')),
    overwrite_blank_fields: z._default(z.boolean({ error: 'Must be a boolean' }), false),
  }),
  z.object({
    contacts: z.array(ContactRowDocument.check(z.meta(UNSUBSCRIBED_AT_RULE))).check(
      z.minLength(1),
      z.meta({
        description:
          'At most BULK_IMPORT_LIMIT rows (default 1000; more is a 413); a bad row fails alone (its result says why)',
      }),
    ),
    overwrite_blank_fields: z._default(z.boolean(), false),
  }),
);
export type BulkContactsBody = z.output<typeof BulkContactsBody>;
