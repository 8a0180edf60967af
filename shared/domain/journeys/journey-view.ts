import { notFound } from '../../errors.js';
import { findWorkflow, type WorkflowDefinition } from '../workflows/catalog.js';
import type { CustomizationRecord } from '../workflows/customization.js';
import type { JourneyDefinition, JourneyIssue } from './definition/types.js';
import { systemJourneyOf } from './definition/system-journeys.js';
import type { JourneyRecord } from './journey-records.js';
import { findOwnJourney, isSystemJourneyId } from './journey-ownership.js';
import type { JourneySummary } from './journey-store.js';
import { definitionView, type JourneyView } from './schemas.js';
import type * as z from '../../validation/zod.js';
import type { JourneyListItem } from './schemas.js';

export type JourneyListItemView = z.output<typeof JourneyListItem>;

export { findOwnJourney, isSystemJourneyId };

/** The catalog workflow of a system journey id; 404 for any other id. */
export function systemWorkflowOf(id: number): WorkflowDefinition {
  const workflow = isSystemJourneyId(id) ? findWorkflow(id) : undefined;
  if (!workflow) throw notFound('id', 'Journey not found');
  return workflow;
}

/** A system journey is live while its workflow is enabled, paused otherwise (it is never a draft or archived). */
const systemStatus = (enabled: boolean) => (enabled ? 'live' : 'paused');

export function systemListItem(workflow: WorkflowDefinition, enabled: boolean): JourneyListItemView {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    system: true,
    status: systemStatus(enabled),
    enabled,
    live_version: null,
    updated_at: null,
  };
}

export const ownListItem = (summary: JourneySummary): JourneyListItemView => ({
  id: summary.id,
  name: summary.name,
  description: summary.description ?? '',
  system: false,
  status: summary.status,
  enabled: null,
  live_version: summary.live_version ?? null,
  updated_at: summary.updated_at,
});

/** A system journey as GET /client/journeys/{id} shows it: the workflow as customized, written as a journey. */
export function systemJourneyView(
  workflow: WorkflowDefinition,
  customization: CustomizationRecord | undefined,
  enabled: boolean,
): JourneyView {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    system: true,
    status: systemStatus(enabled),
    enabled,
    live_version: null,
    draft: null,
    draft_version: 0,
    issues: [],
    live: definitionView(systemJourneyOf(workflow, customization)),
    copied_from: null,
    created_at: null,
    updated_at: null,
  };
}

/** One of the client's journeys with its draft's issues and its live definition. */
export const journeyView = (
  journey: JourneyRecord,
  issues: JourneyIssue[],
  live: JourneyDefinition | undefined,
): JourneyView => ({
  id: journey.id,
  name: journey.name,
  description: journey.description ?? '',
  system: false,
  status: journey.status,
  enabled: null,
  live_version: journey.live_version ?? null,
  draft: journey.draft,
  draft_version: journey.draft_version,
  issues,
  live: live ? definitionView(live) : null,
  copied_from: journey.copied_from ?? null,
  created_at: journey.created_at,
  updated_at: journey.updated_at,
});
