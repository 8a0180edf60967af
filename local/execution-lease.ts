/**
 * The local runtime's EXECUTION_LEASE_SECONDS when none is set (AWS: 600): its SES publishes the notifications at
 * once, so a claim's evidence comes within seconds, not minutes. The admin CLI's `stuck` judges a local
 * runtime's executions by the same lease.
 */
export const LOCAL_EXECUTION_LEASE_SECONDS = 60;
