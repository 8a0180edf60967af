import { REAL_JOURNEY_MINUTE_MS } from '../../domain/runs/advance-run.js';
import { provide } from '../container.js';

/**
 * How long a journey wait's minute lasts: a real minute. Only the local runtime overrides this port (with
 * LOCAL_JOURNEY_MINUTE_MS, for tests); nothing on AWS reads that variable, so a deployed journey waits real time.
 */
export const journeyTime = provide('journeyTime', () => ({ minuteMs: REAL_JOURNEY_MINUTE_MS }));
