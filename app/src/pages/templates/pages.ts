import type { PageEntry } from '../registry.js';
import { TemplatePage } from './template-page.js';
import { TemplatesPage } from './templates-page.js';

/** The templates group's pages (issue 25 §1): the list with its search, and one template's editor with its live preview. */
export const TEMPLATE_PAGES: readonly PageEntry[] = [
  { page: 'templates', title: 'Templates', nav: true, component: TemplatesPage },
  { page: 'template', title: 'Template', nav: false, component: TemplatePage },
];
