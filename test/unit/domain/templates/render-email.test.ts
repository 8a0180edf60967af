import { describe, expect, it } from 'vitest';
import { renderEmail, type EmailTemplateParts } from '../../../../shared/domain/templates/render-email.js';
import type { ClientRecord } from '../../../../shared/domain/clients/client-store.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const template: EmailTemplateParts = {
  subject: 'Hi <%= it.contact.first_name %>\nfrom <%= it.client.brand_name %>',
  preview_text: 'Plan: <%= it.plan ?? "none" %>',
  html_body: '<p><%= it.contact.first_name %> · <a href="<%= it.links.unsubscribe_url %>">unsubscribe</a></p>',
  text_body: 'Reply to <%= it.client.email_reply_to %>',
};
const client = { id: 7, name: 'Acme', email: 'ops@acme.test' } as ClientRecord;

describe('renderEmail', () => {
  it('renders the four parts from contact, branding, links and vars, and reports the variables it used', () => {
    // Prepare
    const contact = contactRecord({ first_name: 'Ann <b>' });

    // Act
    const email = renderEmail({
      template,
      contact,
      branding: {
        settings: { brand_name: 'Acme Mail', email_reply_to: 'help@acme.test' },
        client,
        links: { publicBaseUrl: 'https://svc.example', unsubscribeUrl: 'https://svc.example/u/tok' },
      },
      vars: { plan: 'pro' },
    });

    // Assess
    expect(email).toMatchObject({
      subject: 'Hi Ann <b> from Acme Mail',
      preview_text: 'Plan: pro',
      html: '<p>Ann &lt;b&gt; · <a href="https://svc.example/u/tok">unsubscribe</a></p>',
      text: 'Reply to help@acme.test',
    });
    expect(email.vars).toMatchObject({
      contact: { first_name: 'Ann <b>' },
      client: { brand_name: 'Acme Mail' },
      plan: 'pro',
    });
  });

  it('leaves client and links empty without branding (a preview without default vars)', () => {
    const email = renderEmail({ template, vars: {} });

    expect(email.subject).toBe('Hi from');
    expect(email.vars).toEqual({});
  });

  it('refuses every unsafe part at once with 422 unsafe, before compiling any', () => {
    const unsafe = { ...template, subject: '<%= process.exit() %>', text_body: '<% while(true){} %>' };

    expect(() => renderEmail({ template: unsafe })).toThrow(
      expect.objectContaining({
        status: 422,
        items: [
          expect.objectContaining({ condition: 'unsafe', key: 'subject' }),
          expect.objectContaining({ condition: 'unsafe', key: 'text_body' }),
        ],
      }),
    );
  });
});
