import { randomUUID } from 'node:crypto';
import { conflict, invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import type { Principal } from '../auth/authenticate.js';
import { findTemplate } from '../templates/get-template.js';
import { isSystemTemplateId, type TemplateStore } from '../templates/template-store.js';
import { findWorkflow, type WorkflowDefinition } from './catalog.js';
import {
  OVERRIDE_FIELDS,
  overridesOf,
  sameOverrides,
  snapshotOf,
  toCustomizationView,
  type CustomizationView,
  type Overrides,
} from './customization.js';
import type { WorkflowCustomizationStore } from './customization-store.js';
import type { CustomizationPatch } from './schemas.js';
import type { TopicStore } from '../topics/topic-store.js';

interface Deps {
  clock: Clock;
  templates: TemplateStore;
  customizations: WorkflowCustomizationStore;
  topics: TopicStore;
}

/** A topic is for marketing mail: a transactional workflow reaches every contact not suppressed. */
async function requireTopic(
  deps: Deps,
  clientId: number,
  workflow: WorkflowDefinition,
  topicId: number | null | undefined,
): Promise<void> {
  if (topicId === undefined || topicId === null) return;
  if (workflow.category === 'transactional') {
    throw invalidField(
      'read_only',
      'topic_id',
      'A transactional workflow belongs to no topic: it reaches every contact that is not suppressed',
    );
  }
  const topics = (await deps.topics.load(clientId)).topics;
  if (!topics.some((t) => t.id === topicId)) throw notFound('topic_id', 'Topic not found');
}

/** Optimistic writes retried after losing to a concurrent write (re-read, re-validate, jittered pause). */
const MAX_ATTEMPTS = 6;
const pauseBeforeRetry = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));

/** The catalog workflow, or 404 on `workflow_id`. */
export function requireWorkflow(workflowId: number): WorkflowDefinition {
  const workflow = findWorkflow(workflowId);
  if (!workflow) throw notFound('workflow_id', 'Workflow not found');
  return workflow;
}

export function applyCustomizationPatch(current: Overrides, patch: CustomizationPatch): Overrides {
  const next: Overrides = { ...current };
  for (const field of OVERRIDE_FIELDS) {
    const value = patch[field];
    if (value === null) delete next[field];
    else if (value !== undefined) Object.assign(next, { [field]: Array.isArray(value) ? [...value] : value });
  }
  return next;
}

/** An event that starts a workflow never exits it (goals.ts), so naming the trigger's type as an exit is a mistake: 422. */
function refuseTriggerAsExit(workflow: WorkflowDefinition, exitEvents: readonly string[] | null | undefined): void {
  const index = exitEvents?.indexOf(workflow.trigger.event) ?? -1;
  if (index >= 0) {
    throw invalidField(
      'format',
      `exit_events.${index}`,
      `${workflow.trigger.event} starts this workflow, so it cannot end it`,
    );
  }
}

/**
 * PATCH /client/workflows/{workflow_id}/customization. `template_id` must be a system template or a live template
 * of the client (another client's is a 404 on `template_id`, like a missing one). Each effective change writes the
 * overrides and an audit record (key id, time, before, after) in one transaction, guarded by the version read.
 */
export async function updateCustomization(
  deps: Deps,
  ctx: { clientId: number; principal: Pick<Principal, 'keyId' | 'method' | 'session'>; requestId?: string },
  workflowId: number,
  patch: CustomizationPatch,
): Promise<CustomizationView> {
  const workflow = requireWorkflow(workflowId);
  refuseTriggerAsExit(workflow, patch.exit_events);
  const templateId = patch.template_id ?? undefined;
  const [, , firstRead] = await Promise.all([
    templateId !== undefined ? findTemplate(deps, ctx.clientId, templateId, { key: 'template_id' }) : undefined,
    requireTopic(deps, ctx.clientId, workflow, patch.topic_id),
    deps.customizations.get(ctx.clientId, workflowId),
  ]);
  let current = firstRead;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    if (attempt > 1) {
      await pauseBeforeRetry(attempt);
      current = await deps.customizations.get(ctx.clientId, workflowId);
    }
    const before = overridesOf(current);
    const after = applyCustomizationPatch(before, patch);
    if (after.preferred_send_minute !== undefined && after.preferred_send_hour === undefined) {
      throw invalidField('required', 'preferred_send_hour', 'preferred_send_minute needs preferred_send_hour');
    }
    if (sameOverrides(before, after)) return toCustomizationView(workflow, current);
    const at = deps.clock.now().toISOString();
    const outcome = await deps.customizations.save({
      clientId: ctx.clientId,
      workflowId,
      overrides: after,
      expectedVersion: current?.version,
      requireTemplateId:
        after.template_id !== undefined && !isSystemTemplateId(after.template_id) ? after.template_id : undefined,
      at,
      audit: {
        id: randomUUID(),
        workflow_id: workflowId,
        key_id: ctx.principal.keyId,
        auth_method: ctx.principal.method,
        ...(ctx.principal.session ? { user_id: ctx.principal.session.user_id } : {}),
        request_id: ctx.requestId ?? null,
        at,
        before: snapshotOf(before, workflow),
        after: snapshotOf(after, workflow),
      },
    });
    if (outcome === 'saved') {
      return toCustomizationView(workflow, {
        workflow_id: workflowId,
        ...after,
        clone_template_id: current?.clone_template_id,
        version: (current?.version ?? 0) + 1,
        updated_at: at,
      });
    }
    if (outcome === 'template_missing') throw notFound('template_id', 'Template not found');
  }
  throw conflict('state', 'workflow_id', 'The customization was changed concurrently; retry the request');
}
