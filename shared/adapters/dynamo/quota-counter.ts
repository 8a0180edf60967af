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
