import { useMemo, useRef } from 'preact/hooks';

/** An e-mail's HTML made fit for the dashboard's frame: no inline style (moved aside), nothing fetched from elsewhere. */
export interface FramedEmail {
  /** The document for `srcdoc`: every `style` attribute replaced by `data-ct-style` (its index in `styles`). */
  html: string;
  styles: string[];
  /** The `<style>` elements' text, applied as constructed style sheets. */
  sheets: string[];
  /** Images left out: their source is another origin (the app's CSP loads nothing from one). */
  imagesLeftOut: number;
}

const REMOTE_URL = /url\(\s*(['"]?)(?!data:)[^)]*\1\s*\)/gi;
/** A start tag, its attributes quoted or not (a quoted `>` does not end it). */
const START_TAG = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
const ENTITIES: Record<string, string> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>', nbsp: '\u00a0' };

/** An attribute's value as the HTML parser would give it (the named entities e-mail HTML uses, and numeric ones). */
export function attributeValue(raw: string): string {
  const bare = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
  return bare.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The dashboard's CSP (no inline style, nothing from another origin) also governs a `srcdoc` frame, and Chromium
 * checks inline styles whenever HTML is parsed, even by DOMParser or a <template>: an e-mail's styles would be refused
 * and logged. So the HTML is rewritten as text before any parsing: `style` attributes and `<style>` elements are taken
 * out, to be applied through the CSSOM once the frame has loaded (the CSP does not govern that); scripts, external
 * style sheets, `<base>`, frames and images from another origin are left out; links keep their address in
 * `data-ct-href` only (a click would try to load the site inside the frame, which the CSP refuses).
 */
export function frameEmail(source: string, origin: string = window.location.origin): FramedEmail {
  const sheets: string[] = [];
  const styles: string[] = [];
  let imagesLeftOut = 0;
  const isRemote = (src: string) => !src.startsWith('data:') && new URL(src, origin).origin !== origin;
  const html = source
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi, (_all, text: string) => {
      sheets.push(text.replace(REMOTE_URL, 'none'));
      return '';
    })
    .replace(/<\/?(?:link|base|iframe|object|embed|frame|frameset)\b[^>]*>/gi, '')
    .replace(/<meta\b[^>]*http-equiv[^>]*>/gi, '')
    .replace(START_TAG, (_all, name: string, attributes: string, close: string) => {
      const tag = name.toLowerCase();
      const kept: string[] = [];
      for (const [, key = '', raw] of attributes.matchAll(ATTRIBUTE)) {
        const attribute = key.toLowerCase();
        const value = raw === undefined ? '' : attributeValue(raw);
        if (attribute === 'style') {
          kept.push(`data-ct-style="${styles.length}"`);
          styles.push(value.replace(REMOTE_URL, 'none'));
        } else if (tag === 'img' && attribute === 'src' && isRemote(value)) {
          imagesLeftOut += 1;
        } else if ((tag === 'img' || tag === 'source') && attribute === 'srcset') {
          // Left out: it may name other origins.
        } else if (attribute === 'background' && isRemote(value)) {
          // A table's background image from another origin: left out.
        } else if ((tag === 'a' || tag === 'area') && attribute === 'href') {
          kept.push(`data-ct-href="${escapeAttribute(value)}"`, `title="${escapeAttribute(value)}"`);
        } else if (!attribute.startsWith('on')) {
          kept.push(raw === undefined ? attribute : `${attribute}="${escapeAttribute(value)}"`);
        }
      }
      return `<${name}${kept.map((attribute) => ` ${attribute}`).join('')}${close ? ' /' : ''}>`;
    });
  return { html, styles, sheets, imagesLeftOut };
}

/**
 * The e-mail as sent, in a sandboxed frame: `allow-same-origin` only, so this page can apply its styles; no script
 * runs in it, no form posts, no navigation leaves it (docs/decisions.md, "The e-mail's frame"). Out of the Tab order:
 * its links are inert, the page around it has the browser version.
 */
export function EmailFrame({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const framed = useMemo(() => frameEmail(html), [html]);

  function applyStyles() {
    const doc = frame.current?.contentDocument;
    const view = frame.current?.contentWindow as (Window & typeof globalThis) | null | undefined;
    if (!doc || !view) return;
    for (const element of doc.querySelectorAll<HTMLElement>('[data-ct-style]')) {
      element.style.cssText = framed.styles[Number(element.dataset['ctStyle'])] ?? '';
    }
    if (framed.sheets.length > 0 && 'adoptedStyleSheets' in doc) {
      doc.adoptedStyleSheets = framed.sheets.map((text) => {
        const sheet = new view.CSSStyleSheet();
        sheet.replaceSync(text);
        return sheet;
      });
    }
    // As tall as the message: the page scrolls, not the frame (nothing in it takes focus, so keys could not).
    if (frame.current) frame.current.style.height = `${doc.documentElement.scrollHeight + 2}px`;
  }

  return (
    <>
      {framed.imagesLeftOut > 0 && (
        <p class="hint">
          {framed.imagesLeftOut} image{framed.imagesLeftOut === 1 ? '' : 's'} from another site not shown here: the dashboard loads
          nothing from another origin. The browser version shows them.
        </p>
      )}
      <iframe ref={frame} class="ct-email" title={title} tabIndex={-1} sandbox="allow-same-origin" srcDoc={framed.html} onLoad={applyStyles} />
    </>
  );
}
