import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import { contactVars, deepMerge, defaultVars, resolveVars } from '../../../../shared/domain/templates/template-vars.js';
import type { ClientRecord } from '../../../../shared/domain/clients/client-store.js';

const contact = {
  id: 7,
  client_id: 1,
  email: 'ada@example.com',
  first_name: 'Ada',
  is_subscribed: true,
  source: 1,
  custom_fields: { plan: { id: 1, value: 'pro' }, email: { id: 2, value: 'shadow@example.com' } },
  created_at: '2026-01-01T00:00:00.000Z',
} as unknown as ContactRecord;

const client = { id: 1, name: 'Acme Inc', email: 'ops@acme.test' } as ClientRecord;

describe('template variables', () => {
  it('shows contact fields (null when unset) and custom fields by name; a standard field wins a name clash', () => {
    expect(contactVars(contact)).toMatchObject({
      id: 7,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: null,
      full_name: 'Ada',
      plan: 'pro',
    });
  });

  it('falls back sensibly when the client configured nothing', () => {
    expect(defaultVars(undefined, client, { publicBaseUrl: 'https://svc.example/' })).toEqual({
      client: {
        brand_name: 'Acme Inc',
        brand_logo_url: expect.stringMatching(/^data:image\/gif;base64,/),
        brand_primary_color: '#2563EB',
        brand_secondary_color: '#1F2937',
        company_name: 'Acme Inc',
        company_address: '',
        email_from_name: 'Acme Inc',
        email_from_address: 'ops@acme.test',
        email_reply_to: 'ops@acme.test',
        email_signature: 'The Acme Inc team',
        website: 'https://acme.test',
      },
      links: {
        unsubscribe_url: 'https://svc.example/preview/unsubscribe',
        browser_url: 'https://svc.example/preview/browser',
        app_url: 'https://acme.test',
      },
    });
  });

  it("shows the From the e-mail goes out with when given (the sender's), and still guesses the website from the client's own address", () => {
    // Act
    const vars = defaultVars(
      { email_from_address: 'ceo@other-client.example', email_from_name: 'Not used' },
      client,
      { publicBaseUrl: 'https://svc.example' },
      { address: 'onboarding@sandbox.svc.example', name: 'Acme Inc' },
    );

    // Assess
    expect(vars['client']).toMatchObject({
      email_from_address: 'onboarding@sandbox.svc.example',
      email_from_name: 'Acme Inc',
      email_reply_to: 'onboarding@sandbox.svc.example',
      website: 'https://other-client.example',
    });
  });

  it('deep-merges explicit vars over the defaults without touching the inputs', () => {
    const defaults = defaultVars({ brand_name: 'Acme' }, client, { publicBaseUrl: 'https://svc.example' });
    const out = resolveVars({
      contact: contactVars(contact),
      defaults,
      vars: { contact: { first_name: 'Grace' }, client: { brand_name: 'Other' }, extra: 1 },
    });
    expect(out['contact']).toMatchObject({ first_name: 'Grace', email: 'ada@example.com' });
    expect(out['client']).toMatchObject({ brand_name: 'Other', company_name: 'Acme' });
    expect(out['extra']).toBe(1);
    expect((defaults['client'] as Record<string, unknown>)['brand_name']).toBe('Acme');
  });

  it('never copies __proto__ from caller input; other prototype names stay plain own keys', () => {
    const vars = JSON.parse('{"__proto__": {"polluted": true}, "a": {"constructor": {"x": 1}, "b": 2}}') as Record<
      string,
      unknown
    >;
    const out = deepMerge({}, vars);
    expect(Object.keys(out)).toEqual(['a']);
    expect(out['a']).toEqual({ constructor: { x: 1 }, b: 2 });
    expect(Object.getPrototypeOf(out['a'])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
