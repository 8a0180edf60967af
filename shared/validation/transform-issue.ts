import * as z from './zod.js';
import type { ErrorCondition } from '../errors.js';

/**
 * Fails a `z.transform` with one issue and returns what the transform must return then (`z.NEVER`). zod/mini's
 * transform context is the bare parse payload, without classic zod's `addIssue`, so the issue goes onto the payload
 * with the fields `addIssue` filled in: code `custom`, the value as `input`, the envelope's `condition` in `params`.
 */
export function rejectInTransform(
  ctx: z.core.ParsePayload,
  condition: ErrorCondition,
  message: string,
  path?: readonly PropertyKey[],
): typeof z.NEVER {
  ctx.issues.push({
    code: 'custom',
    message,
    params: { condition },
    input: ctx.value,
    ...(path ? { path: [...path] } : {}),
  });
  return z.NEVER;
}
