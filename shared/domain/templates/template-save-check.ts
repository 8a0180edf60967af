import { unprocessable, type ErrorItem } from '../../errors.js';
import { findUnsafeHtml } from '../html/html-safety.js';
import { inspectTemplate, templateSkeleton, unsafeItem } from './template-safety.js';

/**
 * The check of template content about to be stored or previewed. Its own module: the HTML parser it brings is in the
 * functions that save or preview templates, not in the sender's.
 */

/** What an interpolation stands as while the HTML around it is checked: letters, so a name holding one is seen. */
const INTERPOLATION_PLACEHOLDER = 'elsinterpolation';

/** The HTML parts of a template: checked as HTML (scripts, handlers, script URLs) besides their tags. */
const HTML_PARTS = new Set(['html_body']);

/**
 * The check of content about to be stored or previewed (create, update, clone, a preview's draft): every part's tags
 * (DESIGN.md §6), and the HTML parts as HTML (shared/domain/html/html-safety.ts). Throws 422 `unsafe` with one
 * item per offending part, all at once. Sending does not run the HTML check: what was stored before it still sends,
 * and is shown only as a sandboxed document (docs/decisions/0122-templates-checked-as-html-at-save.md).
 */
export function assertSavableTemplate(parts: Record<string, string | undefined>, keyPrefix = ''): void {
  const items: ErrorItem[] = [];
  for (const [key, source] of Object.entries(parts)) {
    if (source === undefined) continue;
    const inspection = inspectTemplate(source);
    if (!inspection.safe) {
      items.push(unsafeItem(`${keyPrefix}${key}`, inspection));
      continue;
    }
    if (!HTML_PARTS.has(key)) continue;
    const finding = findUnsafeHtml(templateSkeleton(source, INTERPOLATION_PLACEHOLDER), {
      placeholder: INTERPOLATION_PLACEHOLDER,
    });
    if (finding) {
      items.push({
        condition: 'unsafe',
        key: `${keyPrefix}${key}`,
        error:
          `HTML at line ${finding.line} is refused: ${finding.what}. An e-mail may not hold scripts, event-handler ` +
          'attributes (on…), frames or javascript:/vbscript: URLs (mail clients drop them; data: URLs only for images)',
      });
    }
  }
  if (items.length > 0) throw unprocessable(items);
}
