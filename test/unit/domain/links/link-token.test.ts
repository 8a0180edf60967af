import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  LINK_PURPOSES,
  MAX_LINK_TOKEN_LENGTH,
  signLinkToken,
  verifyLinkToken,
  type LinkPayload,
} from '../../../../shared/domain/links/link-token.js';

const SECRET = 'k'.repeat(16) + 'a-local-link-secret-of-32+bytes';
const OTHER_SECRET = 'another-secret-of-at-least-32-bytes!';
const EMAIL_A = '0b6f5e0e-4c1d-5a7e-9f2b-3c4d5e6f7a8b';
const EMAIL_B = '0b6f5e0e-4c1d-5a7e-9f2b-3c4d5e6f7a8c';
const unsubscribe: LinkPayload = { purpose: 'u', clientId: 42, sentEmailId: EMAIL_A };

/** Replaces the character at `index` with another base64url character. */
const tamper = (token: string, index: number) => {
  const swapped = token[index] === 'A' ? 'B' : 'A';
  return token.slice(0, index) + swapped + token.slice(index + 1);
};

describe('signLinkToken', () => {
  it('is base64url(payload).base64url(HMAC-SHA256(secret, payload)) with a compact payload', () => {
    // Act
    const token = signLinkToken(SECRET, unsubscribe);
    // Assess
    const [payload, signature] = token.split('.');
    expect(Buffer.from(payload!, 'base64url').toString()).toBe(`u:42:${EMAIL_A}`);
    expect(signature).toBe(createHmac('sha256', SECRET).update(`u:42:${EMAIL_A}`).digest('base64url'));
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(token.length).toBeLessThanOrEqual(120);
  });

  it('is deterministic and stores the sent e-mail id in lower case', () => {
    expect(signLinkToken(SECRET, { ...unsubscribe, sentEmailId: EMAIL_A.toUpperCase() })).toBe(
      signLinkToken(SECRET, unsubscribe),
    );
  });

  it('stays short for the largest client id', () => {
    const token = signLinkToken(SECRET, { purpose: 'v', clientId: 999_999_999_999_999, sentEmailId: EMAIL_A });
    expect(token.length).toBeLessThanOrEqual(120);
    expect(verifyLinkToken(SECRET, token, 'v')).toEqual({
      purpose: 'v',
      clientId: 999_999_999_999_999,
      sentEmailId: EMAIL_A,
    });
  });

  it.each([
    ['a short secret', 'short', unsubscribe],
    ['an unknown purpose', SECRET, { ...unsubscribe, purpose: 'x' }],
    ['a client id of 0', SECRET, { ...unsubscribe, clientId: 0 }],
    ['a fractional client id', SECRET, { ...unsubscribe, clientId: 4.2 }],
    ['an unsafe client id', SECRET, { ...unsubscribe, clientId: 2 ** 53 }],
    ['a sent e-mail id that is no UUID', SECRET, { ...unsubscribe, sentEmailId: 'not-a-uuid' }],
    ['a sent e-mail id with a delimiter', SECRET, { ...unsubscribe, sentEmailId: `${EMAIL_A}:1` }],
  ])('refuses %s', (_, secret, payload) => {
    expect(() => signLinkToken(secret, payload as LinkPayload)).toThrow(RangeError);
  });
});

describe('verifyLinkToken', () => {
  it.each([
    ['unsubscribe', LINK_PURPOSES.unsubscribe],
    ['view', LINK_PURPOSES.view],
  ])('round-trips a %s token', (_, purpose) => {
    const payload = { purpose, clientId: 7, sentEmailId: EMAIL_B };
    expect(verifyLinkToken(SECRET, signLinkToken(SECRET, payload), purpose)).toEqual(payload);
  });

  it('refuses every token with any one character changed', () => {
    // Prepare
    const token = signLinkToken(SECRET, unsubscribe);
    // Act
    const accepted = [...token]
      .map((_, i) => verifyLinkToken(SECRET, tamper(token, i), 'u'))
      .filter((p) => p !== undefined);
    // Assess
    expect(accepted).toEqual([]);
  });

  it('refuses a token whose signature ends with other unused base64 bits', () => {
    const token = signLinkToken(SECRET, unsubscribe);
    const last = token.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 43 characters carry 258 bits for 256: the last character's two low bits are padding.
    const sameBytes = alphabet[(alphabet.indexOf(last) & ~3) | ((alphabet.indexOf(last) + 1) & 3)]!;
    expect(Buffer.from(token.slice(-43, -1) + sameBytes, 'base64url')).toEqual(
      Buffer.from(token.slice(-43), 'base64url'),
    );
    expect(verifyLinkToken(SECRET, token.slice(0, -1) + sameBytes, 'u')).toBeUndefined();
  });

  it('refuses a token signed with another secret', () => {
    expect(verifyLinkToken(OTHER_SECRET, signLinkToken(SECRET, unsubscribe), 'u')).toBeUndefined();
  });

  it('refuses an unsubscribe token as a view token and the reverse', () => {
    expect(verifyLinkToken(SECRET, signLinkToken(SECRET, unsubscribe), 'v')).toBeUndefined();
    expect(verifyLinkToken(SECRET, signLinkToken(SECRET, { ...unsubscribe, purpose: 'v' }), 'u')).toBeUndefined();
  });

  it('refuses a payload swapped in from another token', () => {
    const a = signLinkToken(SECRET, unsubscribe).split('.');
    const b = signLinkToken(SECRET, { ...unsubscribe, sentEmailId: EMAIL_B }).split('.');
    expect(verifyLinkToken(SECRET, `${b[0]}.${a[1]}`, 'u')).toBeUndefined();
  });

  it('refuses a well-signed payload that is not in the canonical form', () => {
    const forge = (text: string) => {
      const bytes = Buffer.from(text);
      return `${bytes.toString('base64url')}.${createHmac('sha256', SECRET).update(bytes).digest('base64url')}`;
    };
    expect(verifyLinkToken(SECRET, forge(`u:42:${EMAIL_A}`), 'u')).toEqual(unsubscribe);
    for (const text of [
      `u:042:${EMAIL_A}`,
      `u:42:${EMAIL_A.toUpperCase()}`,
      `u:42:${EMAIL_A}:x`,
      `u:-1:${EMAIL_A}`,
      'u:42:',
      '',
    ]) {
      expect(verifyLinkToken(SECRET, forge(text), 'u')).toBeUndefined();
    }
  });

  it.each([
    ['an empty string', ''],
    ['a dot', '.'],
    ['no signature', signLinkToken(SECRET, unsubscribe).split('.')[0]],
    ['a short signature', signLinkToken(SECRET, unsubscribe).slice(0, -1)],
    ['a long signature', `${signLinkToken(SECRET, unsubscribe)}A`],
    ['three parts', `${signLinkToken(SECRET, unsubscribe)}.x`],
    ['standard base64', signLinkToken(SECRET, unsubscribe).replaceAll('-', '+').replaceAll('_', '/') + '+/'],
    ['padding', `${signLinkToken(SECRET, unsubscribe)}=`],
    ['whitespace', ` ${signLinkToken(SECRET, unsubscribe)}`],
    ['a percent-encoded dot', signLinkToken(SECRET, unsubscribe).replace('.', '%2E')],
    ['unicode', 'é.ü'],
    ['garbage', 'not a token at all'],
    ['a huge string', 'A'.repeat(10_000_000)],
    ['just over the length limit', `${'A'.repeat(MAX_LINK_TOKEN_LENGTH - 43)}.${'A'.repeat(43)}`],
  ])('answers undefined for %s', (_, token) => {
    expect(verifyLinkToken(SECRET, token, 'u')).toBeUndefined();
  });

  it.each([null, undefined, 42, {}, ['a.b']])('answers undefined for the non-string %j', (token) => {
    expect(verifyLinkToken(SECRET, token, 'u')).toBeUndefined();
  });

  it('answers undefined, without throwing, when the secret is misconfigured', () => {
    expect(verifyLinkToken('', signLinkToken(SECRET, unsubscribe), 'u')).toBeUndefined();
    expect(verifyLinkToken(undefined as unknown as string, signLinkToken(SECRET, unsubscribe), 'u')).toBeUndefined();
  });

  it('refuses an input longer than a token can be before any work (no timing: the length guard itself)', () => {
    const valid = signLinkToken(SECRET, unsubscribe);
    expect(valid.length).toBeLessThanOrEqual(MAX_LINK_TOKEN_LENGTH);
    // A valid token with one character too many past the bound, and a huge input, are both refused.
    expect(verifyLinkToken(SECRET, valid + '.'.repeat(MAX_LINK_TOKEN_LENGTH + 1 - valid.length), 'u')).toBeUndefined();
    expect(verifyLinkToken(SECRET, 'A'.repeat(50_000_000), 'u')).toBeUndefined();
  });
});

describe('link tokens are not enumerable', () => {
  it('gives neighbouring sent e-mails unrelated signatures', () => {
    // Prepare: ids one bit apart
    const a = signLinkToken(SECRET, unsubscribe).split('.')[1]!;
    const b = signLinkToken(SECRET, { ...unsubscribe, sentEmailId: EMAIL_B }).split('.')[1]!;
    // Act: bits that differ between the two MACs
    const x = Buffer.from(a, 'base64url');
    const y = Buffer.from(b, 'base64url');
    const differing = [...x].reduce(
      (n, byte, i) => n + [...(byte ^ y[i]!).toString(2)].filter((c) => c === '1').length,
      0,
    );
    // Assess: about half of 256 bits (avalanche), far from a counter
    expect(differing).toBeGreaterThan(80);
    expect(differing).toBeLessThan(176);
  });

  it('gives the same sent e-mail different tokens under different secrets and purposes', () => {
    const tokens = new Set([
      signLinkToken(SECRET, unsubscribe),
      signLinkToken(OTHER_SECRET, unsubscribe),
      signLinkToken(SECRET, { ...unsubscribe, purpose: 'v' }),
      signLinkToken(SECRET, { ...unsubscribe, clientId: 43 }),
    ]);
    expect(tokens.size).toBe(4);
  });

  it('accepts none of a thousand guessed signatures for a known payload', () => {
    const [payload] = signLinkToken(SECRET, unsubscribe).split('.');
    const guesses = Array.from(
      { length: 1000 },
      (_, i) => `${payload}.${createHmac('sha256', `guess-${i}`).update('x').digest('base64url')}`,
    );
    expect(guesses.filter((t) => verifyLinkToken(SECRET, t, 'u') !== undefined)).toEqual([]);
  });
});
