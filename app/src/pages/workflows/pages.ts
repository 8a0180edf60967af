import type { PageEntry } from '../registry.js';
import { WorkflowPage } from './workflow-page.js';
import { WorkflowsPage } from './workflows-page.js';

/** The workflows group's pages (issue 25 §1): every workflow, and one workflow (funnel, customization, history). */
export const WORKFLOW_PAGES: readonly PageEntry[] = [
  { page: 'workflows', title: 'Workflows', nav: true, component: WorkflowsPage },
  { page: 'workflow', title: 'Workflow', nav: false, component: WorkflowPage },
];
