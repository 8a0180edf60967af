import { describe, expect, it } from 'vitest';
import { isAmbiguousSendError, sendThrottleOf } from '../../../../shared/domain/executions/send-failure.js';

const sesError = (name: string, message: string, httpStatusCode?: number) =>
  Object.assign(new Error(message), {
    name,
    ...(httpStatusCode === undefined ? {} : { $metadata: { httpStatusCode } }),
  });

describe('sendThrottleOf', () => {
  it.each([
    { error: sesError('TooManyRequestsException', 'Maximum sending rate exceeded.', 429), kind: 'rate' },
    { error: sesError('ThrottlingException', 'Maximum sending rate exceeded.', 400), kind: 'rate' },
    { error: sesError('SomethingNew', 'Slow down', 429), kind: 'rate' },
    { error: sesError('LimitExceededException', 'Limit exceeded', 400), kind: 'daily_quota' },
    { error: sesError('TooManyRequestsException', 'Daily message quota exceeded.', 429), kind: 'daily_quota' },
    { error: sesError('Throttling', 'Throttling failure: Daily message quota exceeded', 400), kind: 'daily_quota' },
  ])('reads $error.name "$error.message" as a $kind throttle', ({ error, kind }) => {
    expect(sendThrottleOf(error)).toBe(kind);
  });

  it.each([
    sesError('SendingPausedException', 'Sending paused', 400),
    sesError('AccountSuspendedException', 'Suspended', 400),
    sesError('InternalServiceErrorException', 'Internal failure', 500),
    Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    'not an error',
  ])('is no throttle for %s', (error) => {
    expect(sendThrottleOf(error)).toBeUndefined();
  });

  it('never calls a throttle ambiguous: SES answered, nothing was sent', () => {
    expect(isAmbiguousSendError(sesError('TooManyRequestsException', 'Maximum sending rate exceeded.', 429))).toBe(
      false,
    );
  });
});
