import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors.js';
import { DomainBody } from '../../../../shared/domain/domains/schemas.js';
import { claimableDomain, normalizeDomain } from '../../../../shared/domain/domains/normalize-domain.js';

const RESERVED = ['email-lifecycle.example', 'sandbox.email-lifecycle.example', 'amazonses.com'];

const refusalOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, items: error.items };
    throw error;
  }
  return undefined;
};

describe('normalizeDomain', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['  example.com.  ', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['BÜCHER.example.', 'xn--bcher-kva.example'],
    ['mail-1.sub.example.org', 'mail-1.sub.example.org'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['localhost', 'one label'],
    ['1.2.3.4', 'an IP address'],
    ['-a.example', 'a leading hyphen'],
    ['a-.example', 'a trailing hyphen'],
    ['a..example', 'an empty label'],
    ['a_b.example', 'an underscore'],
    ['*.example.com', 'a wildcard'],
    ['ex ample.com', 'a space'],
    ['xn--zz.com', 'bad punycode'],
    [`${'a'.repeat(64)}.example`, 'a label over 63'],
    [`${'abcdefghi.'.repeat(25)}example`, 'over 253 characters'],
    ['hello@example.com', 'an address'],
  ])('%j is no domain (%s)', (input) => {
    expect(normalizeDomain(input)).toBeUndefined();
  });
});

describe('DomainBody', () => {
  it('stores the normalized name', () => {
    expect(DomainBody.parse({ domain: ' Bücher.Example. ' })).toEqual({ domain: 'xn--bcher-kva.example' });
  });

  it('refuses a name that is no domain with `format`', () => {
    const parsed = DomainBody.safeParse({ domain: '1.2.3.4' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['domain'], params: { condition: 'format' } });
  });
});

describe('claimableDomain', () => {
  it.each([
    ['email-lifecycle.example', 'equal'],
    ['EMAIL-LIFECYCLE.example.', 'equal after normalizing'],
    ['mail.email-lifecycle.example', 'a subdomain'],
    ['sandbox.email-lifecycle.example', 'the onboarding domain'],
    ['eu.sandbox.email-lifecycle.example', 'under the onboarding domain'],
    ['amazonses.com', "SES's own"],
    ['dkim.amazonses.com', "under SES's own"],
  ])('refuses %j (%s) with 422 `unsafe` on domain', (input) => {
    expect(refusalOf(() => claimableDomain(input, RESERVED))).toMatchObject({
      status: 422,
      items: [{ condition: 'unsafe', key: 'domain' }],
    });
  });

  it('refuses a parent of a service domain', () => {
    expect(refusalOf(() => claimableDomain('example.com', ['mail.example.com']))).toMatchObject({
      status: 422,
      items: [{ condition: 'unsafe', key: 'domain', error: expect.stringContaining('mail.example.com') }],
    });
  });

  it('refuses a name that is no domain with 422 `format`', () => {
    expect(refusalOf(() => claimableDomain('not a domain', RESERVED))).toMatchObject({
      status: 422,
      items: [{ condition: 'format', key: 'domain' }],
    });
  });

  it.each([['acme.example'], ['lifecycle.example'], ['email-lifecycle.example.org']])(
    'accepts %j (no overlap by label)',
    (input) => {
      expect(claimableDomain(input, RESERVED)).toBe(input);
    },
  );
});
