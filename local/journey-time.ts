import * as z from '../shared/validation/zod.js';
import type { JourneyTime } from '../shared/platform.js';

/**
 * The local runtime's journey clock: `LOCAL_JOURNEY_MINUTE_MS=N` makes one minute of a journey's `wait` and
 * `wait_for_event` timeout last N ms, so the integration and chaos runs see a one-minute timeout pass in a second
 * instead of holding a test for a real minute (the runtime cannot fast-forward time). Absent, a minute is a minute
 * (`npm start` for a user). Read only here: the AWS functions never see it, and the stack does not set it.
 */
export const JOURNEY_MINUTE_ENV = 'LOCAL_JOURNEY_MINUTE_MS';

const MinuteMs = z.coerce.number().check(z.int(), z.gte(1), z.lte(60_000));

/** The journey time `LOCAL_JOURNEY_MINUTE_MS` asks for; undefined (a real minute) when unset. Throws on a bad value. */
export function journeyTimeFromEnv(env: NodeJS.ProcessEnv): JourneyTime | undefined {
  const raw = env[JOURNEY_MINUTE_ENV]?.trim();
  if (!raw) return undefined;
  const parsed = MinuteMs.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${JOURNEY_MINUTE_ENV} must be a whole number of milliseconds, 1 to 60000: ${raw}`);
  return { minuteMs: parsed.data };
}
