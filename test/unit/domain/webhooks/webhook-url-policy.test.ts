import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors.js';
import { assertWebhookUrlAllowed } from '../../../../shared/domain/webhooks/webhook-url-policy.js';

const refusal = (url: string): unknown => {
  try {
    assertWebhookUrlAllowed(url, false);
  } catch (error) {
    return error instanceof AppError ? { status: error.status, items: error.items } : error;
  }
  return undefined;
};

describe('assertWebhookUrlAllowed on AWS settings (private URLs not allowed)', () => {
  it('accepts an https URL with a public name', () => {
    expect(refusal('https://hooks.example.com/els')).toBeUndefined();
  });

  it('answers 422 format for http', () => {
    expect(refusal('http://hooks.example.com/els')).toEqual({
      status: 422,
      items: [{ condition: 'format', key: 'url', error: 'Must be an https URL' }],
    });
  });

  it.each([
    'https://127.0.0.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]:8443/',
    'https://[fd00:ec2::254]/',
    'https://localhost/',
    'https://api.localhost/',
    'https://0x7f.1/',
    'https://10.0.0.5/',
  ])('answers 422 unsafe for %s', (url) => {
    expect(refusal(url)).toEqual({
      status: 422,
      items: [
        {
          condition: 'unsafe',
          key: 'url',
          error: 'Must not point at a loopback, private, link-local or metadata address',
        },
      ],
    });
  });
});

describe('assertWebhookUrlAllowed in the local runtime (private URLs allowed)', () => {
  it('accepts http and loopback', () => {
    expect(() => assertWebhookUrlAllowed('http://127.0.0.1:4000/hook', true)).not.toThrow();
    expect(() => assertWebhookUrlAllowed('http://localhost:4000/hook', true)).not.toThrow();
  });
});
