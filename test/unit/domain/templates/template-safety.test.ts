import { describe, expect, it } from 'vitest';
import { SYSTEM_TEMPLATES } from '../../../../shared/domain/templates/system-templates.js';
import { assertSafeTemplates, inspectTemplate } from '../../../../shared/domain/templates/template-safety.js';
import { assertSavableTemplate } from '../../../../shared/domain/templates/template-save-check.js';
import { AppError } from '../../../../shared/errors.js';

describe('inspectTemplate (DESIGN.md §6)', () => {
  it.each([
    ['plain text', 'Hello there, no tags at all.'],
    ['a dotted path', 'Hi <%= it.contact.first_name %>!'],
    ['a path with a double-quoted default', 'Hi <%= it.contact.first_name ?? "there" %>!'],
    ['a path with a single-quoted default', "Hi <%= it.contact.first_name ?? 'there' %>!"],
    ['an empty default', '<%= it.client.company_address ?? "" %>'],
    ['a default containing the closing delimiter', '<%= it.a ?? "50%> off" %>'],
    ['whitespace-trimming markers', '<%-= it.contact.email _%>'],
    ['no spaces inside the tag', '<%=it.links.unsubscribe_url%>'],
    ['custom field names with digits and underscores', '<%= it.contact.plan_tier_2 %>'],
    ['HTML around interpolations', '<a href="<%= it.links.browser_url %>">View</a>'],
  ])('accepts %s', (_label, source) => {
    // Act
    const result = inspectTemplate(source);
    // Assess
    expect(result.safe).toBe(true);
  });

  it.each([
    ['code', '<% process.exit() %>', '<% process.exit() %>', 'code is not allowed'],
    ['raw output of a constructor', '<%~ it.constructor %>', '<%~ it.constructor %>', 'raw (unescaped) output'],
    [
      'raw output of a plain path',
      '<%~ it.contact.first_name %>',
      '<%~ it.contact.first_name %>',
      'raw (unescaped) output',
    ],
    ['a constructor segment', '<%= it.constructor %>', '<%= it.constructor %>', '"constructor"'],
    [
      'constructor chains',
      '<%= it.contact.constructor.constructor %>',
      '<%= it.contact.constructor.constructor %>',
      '"constructor"',
    ],
    ['__proto__', '<%= it.__proto__.polluted %>', '<%= it.__proto__.polluted %>', '"__proto__"'],
    ['prototype', '<%= it.contact.prototype %>', '<%= it.contact.prototype %>', '"prototype"'],
    ['other dunder names', '<%= it.__defineGetter__ %>', '<%= it.__defineGetter__ %>', '"__defineGetter__"'],
    [
      'a function call',
      '<%= it.contact.email.toUpperCase() %>',
      '<%= it.contact.email.toUpperCase() %>',
      'not a plain variable name',
    ],
    ['bracket access', '<%= it["contact"] %>', '<%= it["contact"] %>', 'only a dotted variable path'],
    [
      'bracket access after a segment',
      "<%= it.contact['email'] %>",
      "<%= it.contact['email'] %>",
      'not a plain variable name',
    ],
    ['a global', '<%= process.env.SECRET %>', '<%= process.env.SECRET %>', 'only a dotted variable path'],
    ['the data object itself', '<%= it %>', '<%= it %>', 'only a dotted variable path'],
    ['a non-literal default', '<%= it.a ?? it.b %>', '<%= it.a ?? it.b %>', 'only a dotted variable path'],
    [
      'a template-literal default',
      '<%= it.a ?? `${process.pid}` %>',
      '<%= it.a ?? `${process.pid}` %>',
      'only a dotted variable path',
    ],
    ['a default with escapes', '<%= it.a ?? "\\u0041" %>', '<%= it.a ?? "\\u0041" %>', 'only a dotted variable path'],
    ['another operator', '<%= it.a || "x" %>', '<%= it.a || "x" %>', 'only a dotted variable path'],
    ['a comment tag', '<%# note %>', '<% # note %>', 'code is not allowed'],
    ['an include', '<%~ include("other") %>', '<%~ include("other") %>', 'raw (unescaped) output'],
    ['an unclosed tag', 'Hi <%= it.contact.first_name', '<%= it.contact.first_name', 'does not parse'],
    ['an unclosed string', '<%= it.a ?? "x %>', '"x %>', 'does not parse'],
  ])('refuses %s and names the tag', (_label, source, tag, reason) => {
    // Act
    const result = inspectTemplate(source);
    // Assess
    expect(result).toMatchObject({ safe: false, tag });
    expect(result.safe === false && result.reason).toContain(reason);
  });

  it('refuses the first offending tag even after safe ones', () => {
    const result = inspectTemplate('Hi <%= it.contact.first_name %>, <% while(true){} %>');
    expect(result).toMatchObject({ safe: false, tag: '<% while(true){} %>' });
  });

  it('reports the interpolations it accepted', () => {
    expect(inspectTemplate('<%= it.contact.first_name ?? "there" %> <%= it.client.brand_name %>')).toEqual({
      safe: true,
      interpolations: [{ path: ['contact', 'first_name'], fallback: 'there' }, { path: ['client', 'brand_name'] }],
    });
  });
});

describe('assertSafeTemplates', () => {
  it('throws one 422 unsafe item per offending part, keyed by the part', () => {
    // Act
    let caught: unknown;
    try {
      assertSafeTemplates({
        subject: 'Hi <%= it.contact.first_name %>',
        html_body: '<% process.exit() %>',
        text_body: '<%~ it.constructor %>',
        preview_text: undefined,
      });
    } catch (error) {
      caught = error;
    }
    // Assess
    expect(caught).toBeInstanceOf(AppError);
    const error = caught as AppError;
    expect(error.status).toBe(422);
    expect(error.items).toEqual([
      { condition: 'unsafe', key: 'html_body', error: expect.stringContaining('<% process.exit() %>') },
      { condition: 'unsafe', key: 'text_body', error: expect.stringContaining('<%~ it.constructor %>') },
    ]);
  });

  it('passes safe parts', () => {
    expect(() => assertSafeTemplates({ subject: 'Hello <%= it.contact.first_name ?? "you" %>' })).not.toThrow();
  });
});

describe('assertSavableTemplate', () => {
  const refusal = (parts: Record<string, string | undefined>, prefix?: string): AppError | undefined => {
    try {
      assertSavableTemplate(parts, prefix);
    } catch (error) {
      return error as AppError;
    }
    return undefined;
  };

  it('refuses a script in html_body at its field, with the line and what it is', () => {
    // Act
    const error = refusal({
      subject: 'Hi',
      html_body: '<p>Hi <%= it.contact.first_name %></p>\n<script>alert(1)</script>',
      text_body: '<script> is fine in text',
    });
    // Assess
    expect(error?.status).toBe(422);
    expect(error?.items).toEqual([
      {
        condition: 'unsafe',
        key: 'html_body',
        error: expect.stringContaining('HTML at line 2 is refused: a <script> element'),
      },
    ]);
  });

  it('keys a draft part under its prefix and reports tag and HTML problems at once', () => {
    const error = refusal({ subject: '<% x %>', html_body: '<a href="javascript:alert(1)">x</a>' }, 'draft.');
    expect(error?.items.map((item) => item.key)).toEqual(['draft.subject', 'draft.html_body']);
    expect(error?.items[1]?.error).toContain('a javascript: URL in <a href>');
  });

  it.each([
    [
      'an interpolation as a tag name',
      '<<%= it.event.tag %>>alert(1)</<%= it.event.tag %>>',
      'an interpolation in a tag name',
    ],
    [
      'an interpolation as an attribute name',
      '<img src="x" <%= it.event.attr %>="alert(1)">',
      'an interpolation in an attribute name of <img>',
    ],
    [
      'an interpolation that splits javascript:',
      '<a href="java<%= it.event.x %>script:alert(1)">x</a>',
      'a javascript: URL in <a href>',
    ],
  ])('refuses %s: what the value renders to cannot be checked at save', (_label, html, what) => {
    expect(refusal({ html_body: html })?.items[0]?.error).toContain(what);
  });

  it('accepts interpolations in text and attribute values, links among them', () => {
    expect(
      refusal({
        html_body:
          '<a href="<%= it.links.unsubscribe_url %>" title="<%= it.client.brand_name %>">Bye <%= it.contact.first_name ?? "you" %></a>',
      }),
    ).toBeUndefined();
  });

  it.each(SYSTEM_TEMPLATES.map((t) => [t.id, t] as const))('passes system template %i', (_id, t) => {
    expect(
      refusal({ subject: t.subject, preview_text: t.preview_text, html_body: t.html_body, text_body: t.text_body }),
    ).toBeUndefined();
  });
});

describe('assertSavableTemplate reads the HTML as written', () => {
  it('keeps quotes, backslashes and line breaks of the text around interpolations', () => {
    const error = (() => {
      try {
        assertSavableTemplate({
          html_body: "<p title='a\\\\b'>Hi <%= it.contact.first_name %></p>\r\n\n<a href='javascript:x'>x</a>",
        });
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(error?.items[0]?.error).toContain('HTML at line 3 is refused: a javascript: URL in <a href>');
  });
});
