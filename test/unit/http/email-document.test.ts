import { describe, expect, it } from 'vitest';
import { EMAIL_DOCUMENT_CSP, emailDocumentHeaders } from '../../../shared/http/email-document.js';
import { CSRF_FORM_FIELD, parseForm } from '../../../shared/http/form-fields.js';
import * as z from '../../../shared/validation/zod.js';
import { AppError } from '../../../shared/errors.js';

/** The directives of a CSP, by name. */
const directives = (csp: string) =>
  Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(' ')]),
  );

describe('emailDocumentHeaders', () => {
  it.each(['public', 'dashboard'] as const)(
    'gives the %s e-mail an opaque origin with no script, form or plug-in, and nothing loaded but images and inline style',
    (audience) => {
      // Act
      const csp = directives(emailDocumentHeaders(audience)['content-security-policy']!);
      // Assess: `sandbox` with no token (no allow-scripts, no allow-same-origin, no allow-forms, no allow-popups)
      expect(csp['sandbox']).toBe('');
      expect(csp['default-src']).toBe("'none'");
      expect(csp['style-src']).toBe("'unsafe-inline'");
      expect(csp['form-action']).toBe("'none'");
      expect(csp['base-uri']).toBe("'none'");
      expect(Object.keys(csp)).not.toContain('script-src');
    },
  );

  it('lets nobody frame the public link, and only the dashboard frame its own copies, which load no remote image', () => {
    expect(emailDocumentHeaders('public')).toEqual({
      'content-security-policy': EMAIL_DOCUMENT_CSP.public,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    });
    expect(directives(EMAIL_DOCUMENT_CSP.public)).toMatchObject({
      'frame-ancestors': "'none'",
      'img-src': 'https: data:',
    });
    expect(emailDocumentHeaders('dashboard')).toEqual({
      'content-security-policy': EMAIL_DOCUMENT_CSP.dashboard,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'private, no-store',
      'x-frame-options': 'SAMEORIGIN',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(directives(EMAIL_DOCUMENT_CSP.dashboard)).toMatchObject({ 'frame-ancestors': "'self'", 'img-src': 'data:' });
  });
});

describe('parseForm', () => {
  const schema = z.object({ html_body: z.optional(z.string().check(z.maxLength(5, 'Too long'))) });
  const event = (body: string | undefined, type = 'application/x-www-form-urlencoded', base64 = false) => ({
    body: base64 && body ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
    headers: { 'content-type': type },
  });

  it('reads the fields (base64 as API Gateway may send them), leaving out the CSRF field', () => {
    expect(parseForm(schema, event(`html_body=%3Cp%3E&${CSRF_FORM_FIELD}=t`))).toEqual({ html_body: '<p>' });
    expect(parseForm(schema, event('html_body=ab', 'application/x-www-form-urlencoded; charset=UTF-8', true))).toEqual({
      html_body: 'ab',
    });
    expect(parseForm(schema, event(undefined))).toEqual({});
  });

  it('answers 415 for another body type and 422 at the field for a refused value', () => {
    expect(() => parseForm(schema, event('{"html_body":"x"}', 'application/json'))).toThrow(
      expect.objectContaining({ status: 415 }),
    );
    let caught: unknown;
    try {
      parseForm(schema, event('html_body=toolong'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).items).toEqual([expect.objectContaining({ key: 'html_body', error: 'Too long' })]);
  });
});
