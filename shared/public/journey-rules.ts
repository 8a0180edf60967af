/**
 * The bounds of a journey a client writes (stated in the OpenAPI document; the validator enforces each). They keep a
 * journey small enough to validate, draw and diff at once, and the processing commit of one event (entries, wait
 * resolutions and exits of every journey it touches) under DynamoDB's 100 items a transaction.
 */
export const JOURNEY_LIMITS = {
  /** Steps in one definition. */
  steps: 50,
  /** Conditions in one list (a trigger's, a branch's, a wait's). */
  conditions: 10,
  /** Branches of one `branch` step (its `otherwise` aside). */
  branches: 10,
  /** Arms of one `split` step. */
  armsMin: 2,
  armsMax: 5,
  /** A split's automatic winner: sends each arm needs before one is chosen, and the hours its test lasts at least. */
  winnerMinSends: { min: 1, max: 100_000 },
  winnerMinHours: { min: 0, max: 2_160 },
  /** A `wait`: one minute to a year. */
  waitMinutes: { min: 1, max: 525_600 },
  /** A `wait_for_event`'s timeout: one minute to 90 days. */
  timeoutMinutes: { min: 1, max: 129_600 },
  /** `every_days` re-entry. */
  reentryDays: { min: 1, max: 365 },
  /** The definition as JSON, in bytes. */
  definitionBytes: 65_536,
  /** A journey's name, trimmed. */
  nameChars: 100,
  descriptionChars: 500,
  /** A step's id: `^[a-z][a-z0-9_]{0,39}$`. */
  stepIdChars: 40,
  /** Journeys whose live (or paused) version listens to one trigger event type. */
  liveJourneysPerTrigger: 10,
  /** Runs one contact may be in at once, across journeys (a refused entry is recorded on the event). */
  runsPerContact: 20,
  /** A run key's value as stored on the run (longer values are hashed in the lock and not shown). */
  keyValueChars: 200,
} as const;

/** A step id a client writes and sees (in the API, the executions, the path of a run). */
export const STEP_ID_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

/** Journeys a client may hold that are not archived, by plan tier (409 `max` beyond). */
export const MAX_JOURNEYS_BY_TIER = { free: 1, starter: 5, growth: 20, scale: 100 } as const;

/** Client journeys are numbered from here (1–8 are the system journeys, the workflows' ids). */
export const FIRST_CLIENT_JOURNEY_ID = 1000;

/** What a split's automatic winner compares, each a rate per e-mail its arm's runs were sent. */
export const SPLIT_WINNER_METRICS = ['human_opens', 'human_clicks', 'conversions'] as const;
