/**
 * The most sending domains a client may hold at once: claims in every state count, but one that failed before proof
 * (it holds nothing and expires).
 */
export const MAX_DOMAINS = 10;

/** Hours a claim has to show its ownership TXT record; after that it fails and blocks nobody. */
export const PROOF_WINDOW_HOURS = 72;

/** Hours SES gives a new domain identity to find its DKIM records (SES's own limit). */
export const VERIFY_WINDOW_HOURS = 72;

/** The label of the ownership record: `_els-challenge.<domain>` TXT. */
export const CHALLENGE_LABEL = '_els-challenge';

/** The ownership record's value is this prefix and the claim's own token. */
export const CHALLENGE_PREFIX = 'els-domain-verification=';

/** The custom MAIL FROM subdomain, so SPF aligns with the From domain: `bounce.<domain>`. */
export const MAIL_FROM_LABEL = 'bounce';

/** Minutes between status checks of a claim, by the number of checks made; the last entry repeats. */
export const CHECK_BACKOFF_MINUTES = [5, 10, 20, 40, 60] as const;

/** A domain's "check now" answers the stored state when it was checked less than this many seconds ago. */
export const CHECK_NOW_MIN_SECONDS = 10;

/** SES's mailbox simulator: a client in the sandbox may send there (it never reaches a person). */
export const SES_SIMULATOR_DOMAIN = 'simulator.amazonses.com';

/** What mailbox providers ask of a bulk sender's DMARC record (Gmail and Yahoo, February 2024). */
export const DMARC_ADVICE =
  'Gmail and Yahoo require bulk senders to publish a DMARC record (p=none is enough to start) with SPF or DKIM ' +
  'aligned to the From domain; move to p=quarantine or p=reject once the aggregate reports show only your own mail.';
