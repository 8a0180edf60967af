/**
 * The quota counter items (keys.quota, one per client-month and shard) hold `sent` (the month) and `d<DD>` (each day), raised with
 * `ADD sent :n` by the sender (conditioned on staying below the limit). An absent item means nothing was sent.
 */
export const QUOTA_SENT_ATTRIBUTE = 'sent';

export const sentCountOf = (item: Record<string, unknown> | undefined): number => {
  const value = item?.[QUOTA_SENT_ATTRIBUTE];
  return typeof value === 'number' ? value : 0;
};

/** The day attribute of a quota item: `d07` for the 7th. */
export const quotaDayAttribute = (day: string): string => `d${day.slice(8, 10)}`;

/**
 * A waiting execution on a contact day-cap item: one top-level attribute `pending_<execution id>` = its priority
 * (a nested map could not be written before it exists, and each writer would have to create it first).
 */
export const capPendingAttribute = (executionId: number): string => `pending_${executionId}`;
const PENDING_PREFIX = 'pending_';

/** A contact day-cap item as the send reads it (absent: nothing sent, nobody waiting). */
export function dayCapOf(item: Record<string, unknown> | undefined): { sent: number; pending: Record<string, number> } {
  const pending: Record<string, number> = {};
  for (const [name, value] of Object.entries(item ?? {})) {
    if (name.startsWith(PENDING_PREFIX) && typeof value === 'number')
      pending[name.slice(PENDING_PREFIX.length)] = value;
  }
  return { sent: sentCountOf(item), pending };
}
