import { describe, expect, it } from 'vitest';
import { call, NOT_DELETED, RFC3339_UTC } from './support/api.js';
import { createTestClient } from './support/clients.js';

const sample = {
  name: 'Spring promo',
  subject: 'Hi <%= it.contact.first_name ?? "there" %>, spring is here',
  preview_text: 'Fresh ideas for <%= it.contact.company ?? "your team" %>',
  html_body: '<p>Hello <%= it.contact.first_name %> from <%= it.client.brand_name ?? "us" %></p>',
  text_body: 'Hello <%= it.contact.first_name %>',
};

async function createTemplate(key: string, body: Record<string, unknown> = sample) {
  const res = await call('POST', '/client/email-templates', { key, body });
  expect(res.status).toBe(201);
  return res.body.data;
}

async function createContact(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/client/contacts', { key, body });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('POST /client/email-templates and GET /client/email-templates/{id}', () => {
  it('creates a client template (type 2) and reads it back', async () => {
    const client = await createTestClient();
    const created = await createTemplate(client.api_key);

    expect(created).toEqual({
      id: expect.any(Number),
      user_id: client.id,
      ...sample,
      type: 2,
      source_template: null,
      source_template_id: null,
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
      deleted_at: NOT_DELETED,
    });
    expect(created.id).toBeGreaterThanOrEqual(1000);
    const read = await call('GET', `/client/email-templates/${created.id}`, { key: client.api_key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created);
  });

  it('serves the system templates read-only, owned by SYSTEM (user 0, type 1)', async () => {
    const client = await createTestClient();
    const res = await call('GET', '/client/email-templates/5', { key: client.api_key });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: 5,
      user_id: 0,
      type: 1,
      name: 'Payment failed',
      deleted_at: NOT_DELETED,
    });
    expect(res.body.data.html_body).toContain('<%= it.links.unsubscribe_url');

    const patch = await call('PATCH', '/client/email-templates/5', { key: client.api_key, body: { name: 'Mine now' } });
    expect(patch.status).toBe(403);
    expect(patch.body.errors).toEqual([
      { condition: 'forbidden', key: 'id', error: expect.stringContaining('read-only') },
    ]);
    const del = await call('DELETE', '/client/email-templates/5', { key: client.api_key });
    expect(del.status).toBe(403);
    expect(del.body.errors[0]).toMatchObject({ condition: 'forbidden', key: 'id' });
  });

  it("answers 404 for another client's template, for every verb", async () => {
    const owner = await createTestClient();
    const other = await createTestClient();
    const template = await createTemplate(owner.api_key);
    const path = `/client/email-templates/${template.id}`;

    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, path, { key: other.api_key, body });
      expect(res.status, method).toBe(404);
      expect(res.body.errors, method).toEqual([{ condition: 'not_found', key: 'id', error: 'Template not found' }]);
    }
    const preview = await call('POST', `${path}/render-preview`, { key: other.api_key, body: {} });
    expect(preview.status).toBe(404);
    expect((await call('GET', path, { key: owner.api_key })).body.data.name).toBe(sample.name);
    expect((await call('GET', '/client/email-templates/999999', { key: owner.api_key })).status).toBe(404);
    expect((await call('GET', '/client/email-templates/abc', { key: owner.api_key })).status).toBe(404);
  });

  it('refuses templates that are not plain interpolation (422 unsafe, naming the tag and the part)', async () => {
    const client = await createTestClient();
    const res = await call('POST', '/client/email-templates', {
      key: client.api_key,
      body: { ...sample, html_body: '<p><% process.exit() %></p>', subject: 'Hi <%~ it.constructor %>' },
    });

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { condition: 'unsafe', key: 'subject', error: expect.stringContaining('<%~ it.constructor %>') },
      { condition: 'unsafe', key: 'html_body', error: expect.stringContaining('<% process.exit() %>') },
    ]);
    const list = await call('POST', '/client/email-templates/list', { key: client.api_key, body: { type: 2 } });
    expect(list.body.data.templates).toEqual([]);
  });

  it('reports missing required content', async () => {
    const client = await createTestClient();
    const res = await call('POST', '/client/email-templates', { key: client.api_key, body: { name: '  ' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { key: string; condition: string }) => [e.key, e.condition])).toEqual([
      ['name', 'required'],
      ['subject', 'required'],
      ['html_body', 'required'],
    ]);
  });
});

describe('PATCH /client/email-templates/{id}', () => {
  it('changes only the parts sent and re-checks them', async () => {
    const client = await createTestClient();
    const template = await createTemplate(client.api_key);

    const unsafe = await call('PATCH', `/client/email-templates/${template.id}`, {
      key: client.api_key,
      body: { text_body: 'Hi <%= it.contact.email.toUpperCase() %>' },
    });
    expect(unsafe.status).toBe(422);
    expect(unsafe.body.errors).toEqual([
      {
        condition: 'unsafe',
        key: 'text_body',
        error: expect.stringContaining('<%= it.contact.email.toUpperCase() %>'),
      },
    ]);

    const res = await call('PATCH', `/client/email-templates/${template.id}`, {
      key: client.api_key,
      body: { name: 'Renamed', text_body: 'Bye <%= it.contact.first_name %>' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...template,
      name: 'Renamed',
      text_body: 'Bye <%= it.contact.first_name %>',
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
  });
});

describe('DELETE /client/email-templates/{id}', () => {
  it('soft-deletes: deleted_at is set; GET shows it only with include_deleted; list and edits no longer see it', async () => {
    const client = await createTestClient();
    const template = await createTemplate(client.api_key);
    const path = `/client/email-templates/${template.id}`;

    const del = await call('DELETE', path, { key: client.api_key });
    expect(del.status).toBe(200);
    expect(del.body.data.deleted_at).toEqual({ time: expect.stringMatching(RFC3339_UTC), valid: true });

    expect((await call('GET', path, { key: client.api_key })).status).toBe(404);
    const read = await call('GET', `${path}?include_deleted=true`, { key: client.api_key });
    expect(read.status).toBe(200);
    expect(read.body.data.deleted_at.valid).toBe(true);
    const list = await call('POST', '/client/email-templates/list', { key: client.api_key, body: { type: 2 } });
    expect(list.body.data.templates).toEqual([]);
    expect((await call('PATCH', path, { key: client.api_key, body: { name: 'x' } })).status).toBe(404);
    expect((await call('POST', `${path}/render-preview`, { key: client.api_key, body: {} })).status).toBe(404);
    expect((await call('DELETE', path, { key: client.api_key })).status).toBe(404);
  });
});

describe('POST /client/email-templates/list', () => {
  it("lists the system templates and the client's own — never another client's — with filters and pages", async () => {
    const client = await createTestClient();
    const other = await createTestClient();
    const mine = await createTemplate(client.api_key, { ...sample, name: 'Quarterly digest' });
    await createTemplate(other.api_key, { ...sample, name: 'Quarterly digest of someone else' });

    const all = await call('POST', '/client/email-templates/list', { key: client.api_key, body: {} });
    expect(all.status).toBe(200);
    expect(all.body.data.templates.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, mine.id]);
    expect(all.body.meta).toMatchObject({ page: 1, per_page: 20, total: 9, total_pages: 1 });

    const byQuery = await call('POST', '/client/email-templates/list', {
      key: client.api_key,
      body: { q: 'QUARTERLY' },
    });
    expect(byQuery.body.data.templates.map((t: { id: number }) => t.id)).toEqual([mine.id]);

    const system = await call('POST', '/client/email-templates/list', {
      key: client.api_key,
      body: { type: 1, q: 'payment' },
    });
    expect(system.body.data.templates.map((t: { name: string }) => t.name)).toEqual(['Payment failed']);

    const paged = await call('POST', '/client/email-templates/list', {
      key: client.api_key,
      body: { page: 2, per_page: 4 },
    });
    expect(paged.body.data.templates.map((t: { id: number }) => t.id)).toEqual([5, 6, 7, 8]);
    expect(paged.body.meta).toMatchObject({ page: 2, per_page: 4, total: 9, total_pages: 3 });

    const bad = await call('POST', '/client/email-templates/list', {
      key: client.api_key,
      body: { type: 3, per_page: 500 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { key: string; condition: string }) => [e.key, e.condition])).toEqual([
      ['type', 'enum'],
      ['per_page', 'max'],
    ]);
  });
});

describe('POST /client/email-templates/{id}/render-preview', () => {
  it("renders with the contact, the client's branding and links, escaping values in HTML only", async () => {
    const client = await createTestClient();
    await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { brand_name: 'Acme', brand_primary_color: '#FF5500', company_address: '1 Main St, Springfield' },
    });
    const contact = await createContact(client.api_key, {
      email: 'mallory@example.com',
      first_name: '<script>alert(1)</script>',
      company: 'Evil & Co',
      custom_fields: { plan: 'pro' },
    });
    const template = await createTemplate(client.api_key, {
      ...sample,
      html_body:
        '<p><%= it.contact.first_name %> / <%= it.contact.plan %> / <%= it.client.brand_name %> / <%= it.links.unsubscribe_url %></p>',
    });

    const res = await call('POST', `/client/email-templates/${template.id}/render-preview`, {
      key: client.api_key,
      body: { contact_id: contact.id, include_default_vars: true },
    });

    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      template_id: template.id,
      template_type: 2,
      contact_id: contact.id,
      include_default_vars: true,
      subject: 'Hi <script>alert(1)</script>, spring is here',
      preview_text: 'Fresh ideas for Evil & Co',
      text_body: 'Hello <script>alert(1)</script>',
    });
    expect(d.html_body).toMatch(
      /^<p>&lt;script&gt;alert\(1\)&lt;\/script&gt; \/ pro \/ Acme \/ http.+\/preview\/unsubscribe<\/p>$/,
    );
    expect(d.html_body).not.toContain('<script>');
    expect(d.resolved_vars.contact).toMatchObject({
      id: contact.id,
      email: 'mallory@example.com',
      first_name: '<script>alert(1)</script>',
      plan: 'pro',
      last_name: null,
    });
    expect(d.resolved_vars.client).toMatchObject({
      brand_name: 'Acme',
      brand_primary_color: '#FF5500',
      company_address: '1 Main St, Springfield',
      email_signature: 'The Acme team',
    });
    expect(Object.keys(d.resolved_vars.links).sort()).toEqual(['app_url', 'browser_url', 'unsubscribe_url']);
  });

  it('without default vars uses only the contact (and explicit vars)', async () => {
    const client = await createTestClient();
    const contact = await createContact(client.api_key, { email: 'ada@example.com', first_name: 'Ada' });
    const template = await createTemplate(client.api_key);

    const res = await call('POST', `/client/email-templates/${template.id}/render-preview`, {
      key: client.api_key,
      body: { contact_id: contact.id, include_default_vars: false },
    });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data.resolved_vars)).toEqual(['contact']);
    expect(res.body.data.html_body).toBe('<p>Hello Ada from us</p>');
    expect(res.body.data.include_default_vars).toBe(false);
  });

  it('deep-merges explicit vars on top, and resolved_vars is exactly the map used', async () => {
    const client = await createTestClient();
    await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { brand_name: 'Acme', company_name: 'Acme Ltd' },
    });
    const contact = await createContact(client.api_key, {
      email: 'grace@example.com',
      first_name: 'Grace',
      last_name: 'Hopper',
    });

    const res = await call('POST', '/client/email-templates/4/render-preview', {
      key: client.api_key,
      body: {
        contact_id: contact.id,
        include_default_vars: true,
        vars: { contact: { first_name: 'Admiral' }, client: { brand_name: 'Navy' }, event: { plan: 'Scale' } },
      },
    });

    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ template_id: 4, template_type: 1, subject: 'Thank you for upgrading, Admiral' });
    expect(d.resolved_vars.contact).toMatchObject({
      first_name: 'Admiral',
      last_name: 'Hopper',
      email: 'grace@example.com',
    });
    expect(d.resolved_vars.client).toMatchObject({ brand_name: 'Navy', company_name: 'Acme Ltd' });
    expect(d.resolved_vars.event).toEqual({ plan: 'Scale' });
    expect(d.html_body).toContain('Thank you for upgrading to <strong>Scale</strong>!');
    expect(d.html_body).toContain('Navy');
    expect(d.text_body).toContain('Unsubscribe: ');
  });

  it("renders a draft in place of the stored parts (an editor's live preview) and stores nothing", async () => {
    const client = await createTestClient();
    const contact = await createContact(client.api_key, { email: 'ada@example.com', first_name: 'Ada' });
    const template = await createTemplate(client.api_key);
    const path = `/client/email-templates/${template.id}/render-preview`;

    const res = await call('POST', path, {
      key: client.api_key,
      body: {
        contact_id: contact.id,
        include_default_vars: false,
        draft: {
          subject: 'Welcome aboard, <%= it.contact.first_name %>',
          html_body: '<h1>Hi <%= it.contact.first_name %></h1>',
        },
      },
    });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      template_id: template.id,
      subject: 'Welcome aboard, Ada',
      html_body: '<h1>Hi Ada</h1>',
      // Parts the draft leaves out are the stored ones.
      preview_text: 'Fresh ideas for your team',
      text_body: 'Hello Ada',
    });
    expect(
      (await call('GET', `/client/email-templates/${template.id}`, { key: client.api_key })).body.data,
    ).toMatchObject({ subject: sample.subject, html_body: sample.html_body });
    // A system template (read-only) previews a draft too: nothing is written.
    const system = await call('POST', '/client/email-templates/1/render-preview', {
      key: client.api_key,
      body: { draft: { subject: 'Draft' } },
    });
    expect(system.status).toBe(200);
    expect(system.body.data.subject).toBe('Draft');
  });

  it('refuses a draft the save would refuse, keyed at draft.<part>', async () => {
    const client = await createTestClient();
    const template = await createTemplate(client.api_key);
    const path = `/client/email-templates/${template.id}/render-preview`;

    const unsafe = await call('POST', path, {
      key: client.api_key,
      body: { draft: { html_body: '<p><% process.exit() %></p>' } },
    });
    expect(unsafe.status).toBe(422);
    expect(unsafe.body.errors).toEqual([
      { condition: 'unsafe', key: 'draft.html_body', error: expect.stringContaining('<% process.exit() %>') },
    ]);

    const empty = await call('POST', path, { key: client.api_key, body: { draft: { subject: ' ', text_body: 7 } } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.map((e: { key: string; condition: string }) => [e.key, e.condition])).toEqual([
      ['draft.subject', 'required'],
      ['draft.text_body', 'type'],
    ]);
  });

  it("answers 404 for an unknown contact and for another client's contact", async () => {
    const client = await createTestClient();
    const other = await createTestClient();
    const theirs = await createContact(other.api_key, { email: 'theirs@example.com' });

    for (const contactId of [theirs.id, 987654321]) {
      const res = await call('POST', '/client/email-templates/1/render-preview', {
        key: client.api_key,
        body: { contact_id: contactId },
      });
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([{ condition: 'not_found', key: 'contact_id', error: 'Contact not found' }]);
    }
  });
});
