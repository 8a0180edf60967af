/**
 * Unsubscribe reasons that mean the address must not be mailed at all, not even transactional mail: a hard bounce, a
 * complaint, repeated transient bounces, or an import's `suppressed`. Transactional mail is skipped for these too, so
 * an unsubscription through the API never replaces them with a reason of its own.
 */
export const SUPPRESSION_REASONS: readonly string[] = ['hard_bounce', 'complaint', 'transient_bounces', 'suppressed'];

export const isSuppressionReason = (reason: string | undefined): boolean =>
  reason !== undefined && SUPPRESSION_REASONS.includes(reason);
