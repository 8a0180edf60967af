import { describe, expect, it } from 'vitest';
import {
  clearedSessionCookies,
  cookieValue,
  digestToken,
  looksLikeToken,
  newToken,
  sessionCookies,
  tokenMatches,
} from '../../../../shared/domain/auth/session-tokens.js';

describe('session cookies', () => {
  it('marks both cookies Secure over https, the session HttpOnly on the API path, the CSRF token readable on /', () => {
    expect(sessionCookies('S'.repeat(43), 'C'.repeat(43), { secure: true, apiPath: '/api/v1' })).toEqual([
      `els_session=${'S'.repeat(43)}; Path=/api/v1; Max-Age=604800; HttpOnly; Secure; SameSite=Lax`,
      `els_csrf=${'C'.repeat(43)}; Path=/; Max-Age=604800; Secure; SameSite=Lax`,
    ]);
    expect(clearedSessionCookies({ secure: true, apiPath: '/api/v1' })).toEqual([
      'els_session=; Path=/api/v1; Max-Age=0; HttpOnly; Secure; SameSite=Lax',
      'els_csrf=; Path=/; Max-Age=0; Secure; SameSite=Lax',
    ]);
  });

  it('draws 32 random bytes a token and keeps only its digest', () => {
    const a = newToken();
    expect(looksLikeToken(a)).toBe(true);
    expect(a).not.toBe(newToken());
    expect(digestToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenMatches(a, digestToken(a))).toBe(true);
    expect(tokenMatches(a, digestToken(newToken()))).toBe(false);
    expect(tokenMatches(a, 'not-hex')).toBe(false);
  });

  it('reads a cookie from API Gateway’s cookies or a Cookie header, the first one winning', () => {
    expect(cookieValue(['a=1', 'els_session=x', 'els_session=y'], undefined, 'els_session')).toBe('x');
    expect(cookieValue(undefined, 'a=1; els_csrf=z', 'els_csrf')).toBe('z');
    expect(cookieValue(['xels_session=q'], undefined, 'els_session')).toBeUndefined();
  });
});
