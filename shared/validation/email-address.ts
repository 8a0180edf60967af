import * as z from './zod.js';

/** RFC 5321's limit on a forward path; it also keeps every key built from an address far below 1 024 bytes. */
export const MAX_EMAIL_LENGTH = 254;

/** One DNS label (RFC 1035): 1 to 63 letters, digits or hyphens, never starting or ending with a hyphen. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * The service's one e-mail rule: zod's practical local part (dot-separated atoms of letters, digits, `_ ' + -`, not
 * ending in `'`), then a domain of DNS labels and a 2–63 letter top-level label. zod's own domain part lets a label end
 * in `-` (`x@a0-.example.com`), which `format: email` (and DNS) refuse: an address the service stored would then fail
 * the document's own response schema. Every request and response schema of an address uses this pattern.
 */
export const EMAIL_PATTERN = new RegExp(
  `^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`,
);

/** The rule as a zod check/schema: `format: email` and the pattern in the document. */
export const emailFormat = (message = 'Must be a valid e-mail address') => z.email({ message, pattern: EMAIL_PATTERN });
