/** Attribute of a day row that counts a skip or a failure by reason: `skip:<reason>`, `fail:<reason>`. */
export const SKIP_REASON_PREFIX = 'skip:';
export const FAIL_REASON_PREFIX = 'fail:';
/** Attribute of an event-type row that counts the events received. */
export const RECEIVED = 'received';
/**
 * Attribute of a workflow day row that counted events of a type received (`event:<type>`): rows written before the
 * projection carry it (each event's processing counted itself on the first workflow row it wrote); reads still add it.
 */
export const EVENT_PREFIX = 'event:';

/** How long a day row is kept (its TTL), by default: a year and a month, so a year-on-year view has its days. */
export const DEFAULT_STATS_RETENTION_DAYS = 400;
