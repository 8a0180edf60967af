import { describe, expect, it } from 'vitest';
import { redactQuerySecrets } from '../../../local/server.js';

describe('the local access log line', () => {
  it.each([
    ['/u/eyJhIjoxfQ.c2ln', '/u/[redacted]'],
    ['/v/eyJhIjoxfQ.c2ln?x=1', '/v/[redacted]?x=1'],
    ['/api/v1/auth/callback?token=abc', '/api/v1/auth/callback?token=[redacted]'],
    ['/api/v1/client/contacts?limit=5', '/api/v1/client/contacts?limit=5'],
    ['/app/u/x', '/app/u/x'],
  ])('writes %s as %s: no public link token', (url, logged) => {
    expect(redactQuerySecrets(url)).toBe(logged);
  });
});
