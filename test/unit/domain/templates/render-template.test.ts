import { describe, expect, it } from 'vitest';
import {
  compiledTemplateCount,
  renderTemplate,
  toSingleLine,
} from '../../../../shared/domain/templates/render-template.js';
import { SYSTEM_TEMPLATES } from '../../../../shared/domain/templates/system-templates.js';
import { inspectTemplate } from '../../../../shared/domain/templates/template-safety.js';
import { defaultVars, resolveVars } from '../../../../shared/domain/templates/template-vars.js';
import { WORKFLOWS } from '../../../../shared/domain/workflows/catalog.js';
import type { AppError } from '../../../../shared/errors.js';

const evil = { contact: { first_name: '<script>alert("x")</script> & \'co\'' } };

describe('renderTemplate', () => {
  it('escapes interpolated values in HTML', () => {
    const html = renderTemplate('<p>Hi <%= it.contact.first_name %></p>', evil, 'html');
    expect(html).toBe('<p>Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>');
  });

  it('leaves values as they are in text (subject, preview text, text body)', () => {
    expect(renderTemplate('Hi <%= it.contact.first_name %>', evil, 'text')).toBe(`Hi ${evil.contact.first_name}`);
  });

  it('keeps the template text, quotes and backslashes exactly; line breaks become \\n', () => {
    const source = 'It\'s "quoted" \\ and\n<%= it.a %>\nnext line\r\n';
    expect(renderTemplate(source, { a: 'A' }, 'text')).toBe('It\'s "quoted" \\ and\nA\nnext line\n');
  });

  it.each([
    ['a missing leaf', '<%= it.contact.nickname %>', ''],
    ['a missing parent', '<%= it.order.total %>', ''],
    ['a null value', '<%= it.contact.last_name %>', ''],
    ['a default for a missing value', '<%= it.contact.nickname ?? "friend" %>', 'friend'],
    ['a default for a null value', '<%= it.contact.last_name ?? "-" %>', '-'],
    ['no default when the value is set', '<%= it.contact.first_name ?? "friend" %>', 'Ada'],
    ['numbers', '<%= it.contact.score %>', '42'],
    ['booleans', '<%= it.contact.vip %>', 'false'],
    ['arrays', '<%= it.contact.tags %>', 'a, b'],
    ['prototype members are not variables', '<%= it.contact.toString ?? "none" %>', 'none'],
    ['inherited members of a string are not variables', '<%= it.contact.first_name.length ?? "none" %>', 'none'],
  ])('renders %s', (_label, source, expected) => {
    const vars = { contact: { first_name: 'Ada', last_name: null, score: 42, vip: false, tags: ['a', 'b'] } };
    expect(renderTemplate(source, vars, 'text')).toBe(expected);
  });

  it('refuses an unsafe template before compiling it, naming the tag and the key', () => {
    const before = compiledTemplateCount();
    let caught: unknown;
    try {
      renderTemplate('x <% globalThis.hacked = true %>', {}, 'html', 'html_body');
    } catch (error) {
      caught = error;
    }
    expect((caught as AppError).status).toBe(422);
    expect((caught as AppError).items).toEqual([
      { condition: 'unsafe', key: 'html_body', error: expect.stringContaining('<% globalThis.hacked = true %>') },
    ]);
    expect((globalThis as Record<string, unknown>)['hacked']).toBeUndefined();
    expect(compiledTemplateCount()).toBe(before);
  });

  it('compiles each distinct source once (cache by content hash)', () => {
    const source = `cache probe ${Math.random()} <%= it.a %>`;
    const before = compiledTemplateCount();
    renderTemplate(source, { a: 1 }, 'text');
    renderTemplate(source, { a: 2 }, 'text');
    expect(compiledTemplateCount()).toBe(before + 1);
    renderTemplate(source, { a: 3 }, 'html');
    expect(compiledTemplateCount()).toBe(before + 2);
  });

  it('puts a subject on one line', () => {
    expect(toSingleLine(renderTemplate('Hi <%= it.a %>!', { a: 'x\r\nBcc: y' }, 'text'))).toBe('Hi x Bcc: y!');
  });
});

describe('system templates', () => {
  it('has one per workflow, ids 1–8, type 1, owned by SYSTEM (user 0)', () => {
    expect(SYSTEM_TEMPLATES.map((t) => t.id)).toEqual(WORKFLOWS.map((w) => w.default_template_id));
    expect(SYSTEM_TEMPLATES.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const t of SYSTEM_TEMPLATES) expect(t).toMatchObject({ type: 1, client_id: 0 });
  });

  it.each(SYSTEM_TEMPLATES.map((t) => [t.name, t] as const))('%s obeys DESIGN.md §6 in every part', (_name, t) => {
    for (const part of [t.subject, t.preview_text, t.html_body, t.text_body])
      expect(inspectTemplate(part).safe).toBe(true);
  });

  it.each(SYSTEM_TEMPLATES.map((t) => [t.name, t] as const))('%s renders with the branded layout', (_name, t) => {
    const vars = resolveVars({
      contact: { first_name: 'Ada' },
      defaults: defaultVars(
        {
          brand_name: 'Acme',
          brand_primary_color: '#FF0000',
          company_address: '1 Main St',
          brand_logo_url: 'https://cdn.acme.test/logo.png',
        },
        undefined,
        { publicBaseUrl: 'https://mail.example' },
      ),
    });
    const html = renderTemplate(t.html_body, vars, 'html');
    const text = renderTemplate(t.text_body, vars, 'text');
    expect(html).toContain('Acme');
    expect(html).toContain('#FF0000');
    expect(html).toContain('https://cdn.acme.test/logo.png');
    expect(html).toContain('1 Main St');
    expect(html).toContain('https://mail.example/preview/unsubscribe');
    expect(html).toContain('https://mail.example/preview/browser');
    expect(html).toContain('Ada');
    expect(html).not.toContain('<%');
    // Transactional mail (payment failed) links the same address as the preference page.
    const transactional = WORKFLOWS.find((w) => w.default_template_id === t.id)?.category === 'transactional';
    expect(text).toContain(
      `${transactional ? 'Email preferences' : 'Unsubscribe'}: https://mail.example/preview/unsubscribe`,
    );
    expect(html).toContain(transactional ? '>Manage your email preferences</a>' : '>Unsubscribe</a> from these emails');
    expect(text).toContain('The Acme team');
    expect(renderTemplate(t.subject, vars, 'text')).not.toContain('<%');
  });

  it('reads well without any variables', () => {
    const welcome = SYSTEM_TEMPLATES[0]!;
    expect(renderTemplate(welcome.subject, {}, 'text')).toBe('Welcome to our team, there!');
  });
});
