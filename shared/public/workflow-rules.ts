/** How many exit event types a workflow's customization may list. */
export const MAX_EXIT_EVENTS = 10;

/** The bounds of a workflow customization's numbers (PATCH …/customization refuses a value outside them). */
export const CUSTOMIZATION_RANGE = {
  /** Up to a year. */
  delay_minutes: { min: 0, max: 525_600 },
  priority_score: { min: 0, max: 100 },
  /** In the contact's time zone. */
  preferred_send_hour: { min: 0, max: 23 },
  preferred_send_minute: { min: 0, max: 59 },
  conversion_window_days: { min: 1, max: 90 },
} as const;
