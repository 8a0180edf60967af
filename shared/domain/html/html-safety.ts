import { Parser } from 'htmlparser2';

/**
 * What a template's HTML may not hold, found with a real HTML parser (htmlparser2, entities decoded as a browser
 * decodes them): script, event-handler attributes, script URLs. Mail clients drop all of these, so no legitimate
 * e-mail loses anything; the sandbox CSP the service answers e-mails with (shared/http/email-document.ts) is what
 * keeps a script from running, this check is the second wall (docs/decisions/0122-templates-checked-as-html-at-save.md, "E-mail HTML is a document").
 */

/** Where and what: the first construct refused, and its 1-based line in the checked HTML. */
export interface HtmlFinding {
  line: number;
  what: string;
}

/** Elements that run script or load another document in place (a frame's `srcdoc` is HTML of its own). */
const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'portal',
]);

/** Attributes holding a URL (HTML, SVG and MathML), and those holding a list of them. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'background',
  'poster',
  'cite',
  'longdesc',
  'lowsrc',
  'dynsrc',
  'data',
  'codebase',
  'classid',
  'archive',
  'ping',
  'manifest',
  'icon',
  'usemap',
  'profile',
  'itemtype',
  'xml:base',
]);
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);
/** SVG animation values become an attribute's value (`<set attributeName="href" to="javascript:…">`). */
const ANIMATION_VALUE_ATTRIBUTES = new Set(['to', 'from', 'by', 'values']);

/** Schemes whose URL runs script where it is followed or loaded. */
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript', 'mocha']);

/**
 * Text that HTML treats as raw (no elements inside) but that SVG or MathML content parses as markup, and comments
 * (which some browsers end earlier than htmlparser2 does: `<!-->`, CDATA in HTML): checked again as HTML, so a
 * difference between the two parsers never hides a script.
 */
const RAW_TEXT_ELEMENTS = new Set([
  'style',
  'title',
  'textarea',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'plaintext',
  'iframe',
  'script',
]);
const MAX_NESTING = 3;

/** A plain tag or attribute name (`p`, `v:rect`, `data-x`); anything else is a name no legitimate e-mail writes. */
const PLAIN_NAME = /^[a-z][a-z0-9._-]*(?::[a-z][a-z0-9._-]*)?$/;
const MARKUP_START = /<[a-z!/?]/i;

/** The scheme of a URL as a browser reads it: tabs and line breaks removed, leading/trailing controls and spaces trimmed. */
export function schemeOf(url: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these control characters around a URL, so the check must too.
  const cleaned = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  return /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase();
}

/** Where a `data:` URL is fine: an image, loaded as an image (never a document). */
const imageContext = (element: string, attribute: string): boolean =>
  attribute === 'background' ||
  attribute === 'poster' ||
  ((element === 'img' || element === 'source' || element === 'input') &&
    (attribute === 'src' || SRCSET_ATTRIBUTES.has(attribute)));

function refusedUrl(element: string, attribute: string, url: string): string | undefined {
  const scheme = schemeOf(url);
  if (scheme && SCRIPT_SCHEMES.has(scheme)) return `a ${scheme}: URL in <${element} ${attribute}>`;
  if (scheme === 'data') {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers skip control characters inside a data: URL's media type, so the check must too.
    const cleaned = url.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
    if (!imageContext(element, attribute))
      return `a data: URL in <${element} ${attribute}> (data: URLs are allowed only for images)`;
    if (!cleaned.startsWith('data:image/')) return `a data: URL in <${element} ${attribute}> that is not an image`;
  }
  return undefined;
}

/** The URLs an attribute value names: one, a srcset's candidates, or an animation's `;`-separated values. */
function urlsOf(attribute: string, value: string): string[] {
  if (SRCSET_ATTRIBUTES.has(attribute))
    return value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '');
  if (attribute === 'values') return value.split(';');
  return [value];
}

interface CheckOptions {
  /** Stands for each interpolation of the template (`<%= … %>`): it may not be (part of) a tag or attribute name. */
  placeholder?: string;
}

/**
 * The first construct of `html` refused (or undefined): a script or document-loading element, a malformed tag name,
 * an `on…` attribute, `srcdoc`, a javascript:/vbscript: URL, a `data:` URL other than an image's, a refresh `<meta>`,
 * an interpolation in a tag or attribute name. Comments, raw text and attribute values holding markup are checked again
 * as HTML.
 */
export function findUnsafeHtml(html: string, options: CheckOptions = {}, depth = 0): HtmlFinding | undefined {
  let finding: HtmlFinding | undefined;
  let rawText: { element: string; text: string; line: number } | undefined;
  const lineAt = (index: number) => html.slice(0, index).split('\n').length;
  const placeholder = options.placeholder?.toLowerCase();
  const refuse = (what: string, index = parser.startIndex) => {
    finding ??= { line: lineAt(index), what };
  };
  const nested = (text: string, index: number) => {
    if (finding || !MARKUP_START.test(text)) return;
    if (depth >= MAX_NESTING) return refuse('markup nested too deeply in comments or raw text', index);
    const inner = findUnsafeHtml(text, options, depth + 1);
    if (inner) refuse(`${inner.what}, inside a comment, raw text or an attribute value`, index);
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (finding) return;
        if (placeholder && name.includes(placeholder)) return refuse('an interpolation in a tag name');
        if (!PLAIN_NAME.test(name)) return refuse(`a malformed tag name <${name}>`);
        if (FORBIDDEN_ELEMENTS.has(name)) return refuse(`a <${name}> element`);
        for (const [attribute, value] of Object.entries(attributes)) {
          if (placeholder && attribute.includes(placeholder))
            return refuse(`an interpolation in an attribute name of <${name}>`);
          if (attribute.startsWith('on')) return refuse(`an event-handler attribute ${attribute} on <${name}>`);
          if (attribute === 'srcdoc') return refuse(`a srcdoc attribute on <${name}>`);
          if (name === 'meta' && attribute === 'http-equiv' && value.trim().toLowerCase() === 'refresh')
            return refuse('a <meta http-equiv="refresh">');
          // Markup in a value is markup where a browser ends the element early (`<noscript><p title="</noscript><img …>">`).
          nested(value, parser.startIndex);
          if (finding) return;
          if (
            !URL_ATTRIBUTES.has(attribute) &&
            !SRCSET_ATTRIBUTES.has(attribute) &&
            !ANIMATION_VALUE_ATTRIBUTES.has(attribute)
          )
            continue;
          // Also as the value would read with every interpolation empty: `java<%= it.x %>script:` is a script URL then.
          const readings = placeholder ? [value, value.split(placeholder).join('')] : [value];
          for (const reading of readings) {
            for (const url of urlsOf(attribute, reading)) {
              const refused = refusedUrl(name, attribute, url);
              if (refused) return refuse(refused);
            }
          }
        }
        if (RAW_TEXT_ELEMENTS.has(name)) rawText = { element: name, text: '', line: parser.startIndex };
      },
      ontext(text) {
        if (rawText) rawText.text += text;
      },
      onclosetag(name) {
        if (rawText && rawText.element === name) {
          const { text, line } = rawText;
          rawText = undefined;
          nested(text, line);
        }
      },
      oncomment(text) {
        nested(text, parser.startIndex);
      },
      onprocessinginstruction(_name, text) {
        nested(text.slice(1), parser.startIndex);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.end(html);
  if (rawText) nested(rawText.text, rawText.line);
  return finding;
}
