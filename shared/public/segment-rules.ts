/**
 * The bounds of a segment a client writes (stated in the OpenAPI document; the validator enforces each). A segment is
 * evaluated for one contact at every change that could move it, so its tree stays small: two levels, a few
 * conditions, and a bounded number of distinct event counters a client's segments keep per contact.
 */
export const SEGMENT_LIMITS = {
  /** Groups in a definition, and conditions in one group. */
  groups: 5,
  conditionsPerGroup: 10,
  /** The definition as JSON, in bytes. */
  definitionBytes: 8_192,
  /** Distinct event counters (an event type with its property conditions) across a client's segments. */
  eventSpecsPerClient: 20,
  /** Distinct journeys and broadcasts engagement conditions name across a client's segments (each read per contact). */
  engagementSourcesPerClient: 10,
  /** An event condition's count (at least / at most / exactly N). */
  eventCount: { min: 0, max: 50 },
  /** "Within the last N days" of a date, event or engagement condition. */
  withinDays: { min: 1, max: 365 },
  /** Property conditions of one event condition. */
  eventConditions: 5,
  /** A segment's name, trimmed, and its description. */
  nameChars: 100,
  descriptionChars: 500,
  /** Members listed in one page. */
  membersPerPage: 100,
  /** Contacts a preview reads at most: up to this many it counts exactly, beyond it answers a sampled share. */
  previewContacts: 5_000,
} as const;

/** Segments a client may hold, by plan tier (409 `max` beyond). */
export const MAX_SEGMENTS_BY_TIER = { free: 3, starter: 10, growth: 50, scale: 200 } as const;
