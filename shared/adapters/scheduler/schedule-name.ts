import { createHash } from 'node:crypto';

/** EventBridge Scheduler's rule for a schedule name. */
const VALID_NAME = /^[0-9a-zA-Z._-]{1,64}$/;
const HASH_CHARS = 16;

/**
 * The schedule name for a port name. A valid name is kept as it is (readable in the console). Any other is
 * sanitized and suffixed with a hash of the original: replacing or cutting characters alone could map two names to
 * one, and the second schedule would then be taken for a duplicate of the first (ConflictException = success) and
 * never delivered. Deterministic, so the same port name always yields the same schedule name (idempotency).
 */
export function scheduleName(name: string): string {
  if (VALID_NAME.test(name)) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_CHARS);
  const readable = name.replace(/[^0-9a-zA-Z._-]+/g, '-').slice(0, 64 - HASH_CHARS - 1);
  return readable ? `${readable}-${hash}` : hash;
}
