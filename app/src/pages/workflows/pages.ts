import type { PageEntry } from '../registry.js';
import { WorkflowsPage } from './workflows-page.js';

/** The workflows group's pages (issue 25 §1): every workflow. */
export const WORKFLOW_PAGES: readonly PageEntry[] = [
  { page: 'workflows', title: 'Workflows', nav: true, component: WorkflowsPage },
];
