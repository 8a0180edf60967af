import { describe, expect, it } from 'vitest';
import { JOURNEY_MINUTE_ENV, journeyTimeFromEnv } from '../../../local/journey-time.js';

describe('the local runtime’s journey minute (LOCAL_JOURNEY_MINUTE_MS)', () => {
  it('is a real minute when unset or blank: no override, the provider’s 60,000 ms stand', () => {
    expect(journeyTimeFromEnv({})).toBeUndefined();
    expect(journeyTimeFromEnv({ [JOURNEY_MINUTE_ENV]: '  ' })).toBeUndefined();
  });

  it('is the milliseconds given, 1 to 60,000', () => {
    expect(journeyTimeFromEnv({ [JOURNEY_MINUTE_ENV]: '1000' })).toEqual({ minuteMs: 1000 });
    expect(journeyTimeFromEnv({ [JOURNEY_MINUTE_ENV]: '1' })).toEqual({ minuteMs: 1 });
    expect(journeyTimeFromEnv({ [JOURNEY_MINUTE_ENV]: '60000' })).toEqual({ minuteMs: 60_000 });
  });

  it.each(['0', '-5', '1.5', '60001', 'fast', '1e3x'])('refuses %s at start, naming the variable', (value) => {
    expect(() => journeyTimeFromEnv({ [JOURNEY_MINUTE_ENV]: value })).toThrow(
      `LOCAL_JOURNEY_MINUTE_MS must be a whole number of milliseconds, 1 to 60000: ${value}`,
    );
  });
});
