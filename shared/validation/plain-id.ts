import * as z from './zod.js';

/**
 * A numeric id in a path (`/client/events/{id}`): a plain decimal of at most `digits` digits becomes that number;
 * anything else becomes 0, which names no record, so the route answers 404 rather than a validation error.
 */
export function plainIdParam(digits: number, description: string) {
  const plain = new RegExp(`^\\d{1,${digits}}$`);
  return z
    .pipe(
      z.string(),
      z.transform((v: string) => (plain.test(v) ? Number(v) : 0)),
    )
    .check(z.meta({ description }));
}
