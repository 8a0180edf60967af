/**
 * The quota counter items (keys.quotaMonth / keys.quotaDay) hold one number attribute, `sent`, raised with
 * `ADD sent :n` by the sender (conditioned on staying below the limit). An absent item means nothing was sent.
 */
export const QUOTA_SENT_ATTRIBUTE = 'sent';

export const sentCountOf = (item: Record<string, unknown> | undefined): number => {
  const value = item?.[QUOTA_SENT_ATTRIBUTE];
  return typeof value === 'number' ? value : 0;
};
