import * as z from './zod.js';
import { boundedString, MAX_PATH_ID_LENGTH } from './string-bounds.js';

/**
 * A numeric id in a path (`/client/events/{id}`): a plain decimal of at most `digits` digits becomes that number;
 * anything else becomes 0, which names no record, so the route answers 404 rather than a validation error (beyond
 * MAX_PATH_ID_LENGTH characters, a 422 `max`).
 */
export function plainIdParam(digits: number, description: string) {
  const plain = new RegExp(`^\\d{1,${digits}}$`);
  return z
    .pipe(
      boundedString(MAX_PATH_ID_LENGTH),
      z.transform((v: string) => (plain.test(v) ? Number(v) : 0)),
    )
    .check(z.meta({ description }));
}
