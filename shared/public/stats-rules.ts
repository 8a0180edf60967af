/**
 * How long the day counters' projection waits to fill a batch of the table's changes on AWS (its event source
 * mapping's batching window): the larger, the fewer writes a fact (a batch's facts are summed per row), the later
 * the counts.
 */
export const COUNTS_BATCHING_WINDOW_SECONDS = 10;

/** The most a count lags its fact on AWS when all is well: the batching window plus the stream's polling. */
export const COUNTS_LAG_SECONDS = COUNTS_BATCHING_WINDOW_SECONDS + 2;

/**
 * What the statistics say of their freshness (the API document and the dashboard). The local figures are measured
 * (docs/benchmarks.md "Day counters"): p95 0.36 s for facts one at a time, 4.7 s while the engine runs a burst on
 * two cores.
 */
export const STATS_FRESHNESS =
  `Counts follow the facts through the table's change stream, so a fact shows a few seconds after it happened: ` +
  `within about ${COUNTS_LAG_SECONDS} s on AWS (up to ${COUNTS_BATCHING_WINDOW_SECONDS} s waiting to batch), ` +
  'within a second locally (up to about 5 s under a burst).';
