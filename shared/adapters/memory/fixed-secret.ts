import type { Secret } from '../../platform.js';

/** A secret whose value is known up front: the environment's locally and in tests (no AWS call, nothing to cache). */
export function fixedSecret(value: string): Secret {
  return { value: async () => value };
}
