import { describe, expect, it } from 'vitest';
import { findUnsafeHtml, schemeOf } from '../../../../shared/domain/html/html-safety.js';

describe('findUnsafeHtml', () => {
  it.each([
    [
      'a plain e-mail',
      '<!DOCTYPE html><html><head><meta charset="utf-8"><style>p { color: #333 }</style></head><body><p style="margin:0">Hi</p></body></html>',
    ],
    [
      'links of every ordinary scheme',
      '<a href="https://example.com/a?b=c">a</a> <a href="mailto:x@y.io">m</a> <a href="tel:+331">t</a> <a href="/relative">r</a> <a href="#top">#</a>',
    ],
    [
      'images as data: URLs',
      '<img src="data:image/png;base64,iVBORw0KGgo=" srcset="data:image/gif;base64,R0lG 1x, https://cdn.example.net/a.png 2x" alt="">',
    ],
    [
      'a table background image',
      '<table background="https://cdn.example.net/bg.png"><td background="data:image/png;base64,AA==">x</td></table>',
    ],
    ['the Content-Type meta of e-mail HTML', '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'],
    [
      'Outlook conditional comments',
      '<!--[if mso]><v:rect xmlns:v="urn:schemas-microsoft-com:vml" fill="true"><v:fill type="tile" src="https://cdn.example.net/bg.png" /></v:rect><![endif]-->',
    ],
    ['text that mentions script', '<p>javascript: the good parts &lt;script&gt; is shown as text</p>'],
    ['a less-than sign in text', '<p>1 < 2 and 3 > 2</p>'],
    ['CSS with a child combinator', '<style>td > p { margin: 0 }</style>'],
    ['an attribute named like a handler but not one', '<td data-onload="x" class="online">x</td>'],
  ])('accepts %s', (_label, html) => {
    expect(findUnsafeHtml(html)).toBeUndefined();
  });

  it.each([
    ['a script element', '<p>Hi</p>\n<script>fetch("/api/v1/client/api-keys")</script>', 'a <script> element', 2],
    ['an upper-case script element', '<SCRIPT SRC="https://evil.example/x.js"></SCRIPT>', 'a <script> element', 1],
    [
      'the regex splice <scr<script></script>ipt>',
      '<scr<script></script>ipt>alert(1)</script>',
      'a malformed tag name',
      1,
    ],
    ['a self-closing svg with onload', '<svg/onload=alert(1)>', 'an event-handler attribute onload on <svg>', 1],
    ['an image with onerror', '<img src=x onerror="alert(1)">', 'an event-handler attribute onerror on <img>', 1],
    ['a handler in mixed case', '<body OnLoad="alert(1)">', 'an event-handler attribute onload on <body>', 1],
    [
      'a javascript: link with spaces and mixed case',
      '<a href=" JaVaScRiPt:alert(1)">x</a>',
      'a javascript: URL in <a href>',
      1,
    ],
    ['an entity-encoded colon', '<a href="javascript&#58;alert(1)">x</a>', 'a javascript: URL in <a href>', 1],
    [
      'an entity-encoded colon without its semicolon',
      '<a href="javascript&#58alert(1)">x</a>',
      'a javascript: URL in <a href>',
      1,
    ],
    ['a named colon entity', '<a href="javascript&colon;alert(1)">x</a>', 'a javascript: URL in <a href>', 1],
    ['a tab inside the scheme', '<a href="jav&#x09;ascript:alert(1)">x</a>', 'a javascript: URL in <a href>', 1],
    ['a line break inside the scheme', '<a href="java\nscript:alert(1)">x</a>', 'a javascript: URL in <a href>', 1],
    ['a leading control character', '<a href="&#1;javascript:alert(1)">x</a>', 'a javascript: URL in <a href>', 1],
    ['a vbscript: URL', '<a href="vbscript:msgbox(1)">x</a>', 'a vbscript: URL in <a href>', 1],
    [
      'a form action',
      '<form action="javascript:alert(1)"><button>Go</button></form>',
      'a javascript: URL in <form action>',
      1,
    ],
    [
      'a button formaction',
      '<button formaction="javascript:alert(1)">Go</button>',
      'a javascript: URL in <button formaction>',
      1,
    ],
    [
      'an SVG xlink:href',
      '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
      'a javascript: URL in <a xlink:href>',
      1,
    ],
    [
      'an SVG animation that sets href',
      '<svg><a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>',
      'a javascript: URL in <set to>',
      1,
    ],
    [
      'an SVG animation list',
      '<svg><animate attributeName="href" values="https://a.example;javascript:alert(1)"/></svg>',
      'a javascript: URL in <animate values>',
      1,
    ],
    [
      'a srcset candidate',
      '<img srcset="https://a.example/x.png 1x, javascript:alert(1) 2x">',
      'a javascript: URL in <img srcset>',
      1,
    ],
    [
      'an iframe with srcdoc',
      '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
      'a <iframe> element',
      1,
    ],
    [
      'srcdoc on any element',
      '<div srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></div>',
      'a srcdoc attribute on <div>',
      1,
    ],
    ['an object', '<object data="https://evil.example/x.swf"></object>', 'a <object> element', 1],
    ['an embed', '<embed src="https://evil.example/x.svg">', 'a <embed> element', 1],
    ['a base element', '<base href="https://evil.example/">', 'a <base> element', 1],
    [
      'a refresh meta',
      '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
      'a <meta http-equiv="refresh">',
      1,
    ],
    [
      'a data: URL as a link',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
      'a data: URL in <a href> (data: URLs are allowed only for images)',
      1,
    ],
    [
      'a data: URL image that is HTML',
      '<img src="data:text/html;base64,PHNjcmlwdD4=">',
      'a data: URL in <img src> that is not an image',
      1,
    ],
    ['a script after an abruptly closed comment', '<!--><script>alert(1)</script>-->', 'a <script> element', 1],
    [
      'a script hidden in CDATA (a bogus comment in HTML)',
      '<![CDATA[><script>alert(1)</script>]]>',
      'a <script> element, inside a comment',
      1,
    ],
    [
      'an SVG style whose content is markup',
      '<svg><style><img src=x onerror=alert(1)></style></svg>',
      'an event-handler attribute onerror on <img>, inside a comment',
      1,
    ],
    [
      'a script in a title',
      '<svg><title><script>alert(1)</script></title></svg>',
      'a <script> element, inside a comment',
      1,
    ],
    [
      'a noscript ended inside an attribute',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>',
      'an event-handler attribute onerror on <img>, inside a comment, raw text or an attribute value',
      1,
    ],
  ])('refuses %s', (_label, html, what, line) => {
    expect(findUnsafeHtml(html)).toEqual({ what: expect.stringContaining(what), line });
  });

  it('reports the line of the construct', () => {
    expect(findUnsafeHtml('<html>\n<body>\n<p>Hi</p>\n<a href="javascript:x">x</a>\n</body></html>')).toEqual({
      line: 4,
      what: 'a javascript: URL in <a href>',
    });
  });

  it.each([
    ['in a tag name', '<elsvar>x</elsvar>', 'an interpolation in a tag name'],
    ['in the middle of a tag name', '<scrELSVAR>x</scrELSVAR>', 'an interpolation in a tag name'],
    ['in an attribute name', '<img elsvar=x>', 'an interpolation in an attribute name of <img>'],
    ['splitting a javascript: scheme', '<a href="javaelsvarscript:alert(1)">x</a>', 'a javascript: URL in <a href>'],
  ])('with interpolations as a placeholder, refuses one %s', (_label, html, what) => {
    expect(findUnsafeHtml(html, { placeholder: 'elsvar' })?.what).toBe(what);
  });

  it('accepts an interpolation as an attribute value or text', () => {
    expect(
      findUnsafeHtml('<a href="elsvar">elsvar</a><img src="elsvar" alt="elsvar">', { placeholder: 'elsvar' }),
    ).toBeUndefined();
  });
});

describe('schemeOf', () => {
  it.each([
    ['https://a.example', 'https'],
    [' \t JavaScript:alert(1)', 'javascript'],
    ['java\r\nscript:x', 'javascript'],
    ['/relative:colon', undefined],
    ['no-scheme', undefined],
  ])('reads %j as %j', (url, scheme) => {
    expect(schemeOf(url)).toBe(scheme);
  });
});
