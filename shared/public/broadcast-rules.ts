/**
 * The bounds of a broadcast (stated in the OpenAPI document; the validator enforces each), and the rates the engine
 * paces broadcasts at: a broadcast is one e-mail to many, so it takes at most a share of the account's SES rate and
 * its client's plan rate, and lifecycle mail keeps the rest.
 */
export const BROADCAST_LIMITS = {
  /** Content variants of one broadcast: more than one is an A/B test (`ab`). */
  variants: 4,
  /** An A/B test's share of the audience, in percent: the rest get the winner. */
  abTestPercent: { min: 5, max: 50 },
  /** Hours after the start an A/B test's winner is chosen. */
  abDecideAfterHours: { min: 1, max: 72 },
  /** A subject of the broadcast's own, in characters. */
  subjectChars: 200,
  /** A broadcast's name, trimmed. */
  nameChars: 100,
  /** How far ahead a broadcast may be scheduled, in days. */
  scheduleAheadDays: 365,
  /** Users a test send goes to at once. */
  testUsers: 5,
  /** Test sends (requests) a client may make per hour: each is mail from its sender to its own team. */
  testSendsPerHour: 20,
  /** Recipients listed in one page. */
  recipientsPerPage: 100,
  /** Recipients in one page of the CSV export (its rows stay far under an answer's 6 MB). */
  exportRowsPerPage: 5_000,
  /** Days after a recipient's e-mail was sent within which its conversion event counts. */
  conversionWindowDays: { min: 1, max: 30 },
  /** Links a broadcast's answer lists (by human clicks, most first). */
  linksShown: 100,
  /** Hours after a broadcast's start its resend to non-openers starts. */
  resendAfterHours: { min: 1, max: 168 },
  /** A broadcast's priority against the contact's daily cap (the workflows' default is 50: lifecycle mail wins). */
  priority: { min: 0, max: 100, default: 30 },
} as const;

/** Broadcasts a client may have sending (snapshotting, sending or paused) at once, by plan tier (409 `max` beyond). */
export const MAX_SENDING_BROADCASTS_BY_TIER = { free: 1, starter: 1, growth: 3, scale: 10 } as const;

/** E-mails a second one client's broadcasts may send, by plan tier (a client's settings may only lower it). */
export const BROADCAST_RATE_BY_TIER = { free: 1, starter: 5, growth: 25, scale: 100 } as const;

/** The share of the account's SES send rate all broadcasts together may take; lifecycle mail keeps the rest. */
export const BROADCAST_SHARE = 0.8;

/**
 * Where one recipient stands, from its execution and its e-mail: waiting (`queued`), ended without an e-mail
 * (`skipped` with the reason, `cancelled`, `failed`, `retried`: a newer attempt follows it), or its e-mail's furthest
 * step — `opened` and `clicked` by a person only (machine opens and clicks never move it), `unsubscribed`,
 * `bounced` and `complained` above them.
 */
export const BROADCAST_RECIPIENT_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'opened',
  'clicked',
  'unsubscribed',
  'bounced',
  'complained',
  'failed',
  'skipped',
  'cancelled',
  'retried',
] as const;
export type BroadcastRecipientStatus = (typeof BROADCAST_RECIPIENT_STATUSES)[number];

/**
 * What an A/B test's winner is chosen on, per e-mail delivered: each variant's first human opens, human clicks, or
 * conversions (the broadcast's `conversion` event within its window).
 */
export const BROADCAST_AB_METRICS = ['human_opens', 'human_clicks', 'conversions'] as const;
export type BroadcastAbMetric = (typeof BROADCAST_AB_METRICS)[number];

/** A broadcast's life: every move is a conditional update of its head. */
export const BROADCAST_STATUSES = [
  'draft',
  'scheduled',
  'snapshotting',
  'sending',
  'paused',
  'sent',
  'cancelled',
] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];
