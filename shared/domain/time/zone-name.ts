import { rejectInTransform } from '../../validation/transform-issue.js';
import * as z from '../../validation/zod.js';
import { boundedString, MAX_ZONE_NAME_LENGTH } from '../../validation/string-bounds.js';
import { resolveTimezone } from './timezones.js';

/**
 * A time zone field: an IANA name or a common alias, answered as the canonical IANA name; a blank value becomes
 * `blank` (a contact leaves its zone out, a settings merge-patch clears it with null).
 */
export const zoneName = <B extends undefined | null>(blank: B) =>
  z.pipe(
    boundedString(MAX_ZONE_NAME_LENGTH),
    z.transform((value: string, ctx) => {
      if (value.trim() === '') return blank;
      return (
        resolveTimezone(value) ??
        rejectInTransform(ctx, 'format', 'Must be an IANA time zone name such as Europe/Paris')
      );
    }),
  );
