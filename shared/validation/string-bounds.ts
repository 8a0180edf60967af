import * as z from './zod.js';

/**
 * The length bounds of request strings that have no longer rule of their own: every request string has a
 * `maxLength` the validator enforces (a 422 `max` at its key) and the document states, so no field takes an
 * unbounded value to a parser, a regex or the store.
 */

/** A numeric id in a path: far longer than any id (ids have at most 16 digits; the contact path also takes an address). */
export const MAX_PATH_ID_LENGTH = 320;
/** An RFC 3339 timestamp or date: 35 characters with nanoseconds and an offset; room for more fraction digits. */
export const MAX_TIMESTAMP_LENGTH = 64;
/** An IANA zone name (the longest is 32 characters) or an alias. */
export const MAX_ZONE_NAME_LENGTH = 64;

/** A string of at most `max` characters (a 422 `max` past it). */
export const boundedString = (max: number) => z.string().check(z.maxLength(max, `Must be at most ${max} characters`));
