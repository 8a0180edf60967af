import * as z from '../../validation/zod.js';

/**
 * A timestamp as every response shows it: RFC 3339 in UTC (`toISOString()`), e.g. `2026-01-31T09:00:00.000Z`.
 * The output side of the API's timestamps, described once for the OpenAPI document.
 */
export const UtcTimestamp = z.iso
  .datetime()
  .check(z.meta({ description: 'RFC 3339 timestamp in UTC', examples: ['2026-01-31T09:00:00.000Z'] }));
