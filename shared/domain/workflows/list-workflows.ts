import { CUSTOMIZATION_RANGE } from '../../public/workflow-rules.js';
import * as z from '../../validation/zod.js';
import type { Clock } from '../../platform.js';
import { effectiveLimits, planOf } from '../settings/effective-settings.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { findSystemTemplate } from '../templates/system-templates.js';
import { isSystemTemplateId, type TemplateRecord, type TemplateStore } from '../templates/template-store.js';
import { WORKFLOW_CATEGORIES, WORKFLOW_IDS, WORKFLOWS } from './catalog.js';
import {
  CustomizationView,
  SendTimeModeValue,
  toCustomizationView,
  type CustomizationRecord,
} from './customization.js';
import type { WorkflowCustomizationStore } from './customization-store.js';
import { DEFAULT_CONVERSION_WINDOW_DAYS } from './goals.js';

/** An item of GET /client/workflows (OpenAPI `Workflow`): a catalog workflow with this client's configuration. */
export const WorkflowView = z
  .object({
    id: z.int().check(z.gte(1)),
    key: z.string().check(z.meta({ examples: ['welcome'] })),
    name: z.string(),
    description: z.string(),
    trigger: z
      .object({
        event: z.string().check(z.meta({ description: 'The event `type` that starts the workflow' })),
        or_when: z
          .optional(z.object({ field: z.literal('upgrade'), equals: z.literal(true) }))
          .check(z.meta({ description: 'Also starts on an event of any type whose `field` equals `equals`' })),
      })
      .check(z.meta({ description: 'What starts the workflow' })),
    critical: z
      .boolean()
      .check(z.meta({ description: "May bypass a contact's daily cap when the client enables the bypass" })),
    category: z.enum(WORKFLOW_CATEGORIES).check(
      z.meta({
        description:
          'Fixed by the catalog, not a customization. `transactional` (payment failed): also sent to an unsubscribed contact, ' +
          'with a link to the preference page instead of the one-click List-Unsubscribe headers. `marketing`: skipped ' +
          '`unsubscribed` once the contact unsubscribed, with RFC 8058 one-click unsubscribe. A suppressed address (hard ' +
          'bounce, complaint, repeated transient bounces) receives neither: skipped `suppressed`',
      }),
    ),
    enabled: z.boolean(),
    defaults: z.object({
      template_id: z.int().check(z.gte(1)),
      delay_minutes: z.int().check(z.gte(0)),
      priority_score: z
        .int()
        .check(z.gte(CUSTOMIZATION_RANGE.priority_score.min), z.lte(CUSTOMIZATION_RANGE.priority_score.max)),
      send_time_mode: SendTimeModeValue,
      send_slot: z.nullable(z.enum(['morning', 'afternoon'])),
      exit_events: z
        .array(z.string())
        .check(z.meta({ description: "The catalog's exit event types (goals); `*` is any event" })),
      conversion_window_days: z
        .int()
        .check(
          z.gte(CUSTOMIZATION_RANGE.conversion_window_days.min),
          z.lte(CUSTOMIZATION_RANGE.conversion_window_days.max),
        ),
    }),
    customization: CustomizationView,
    template: z
      .nullable(z.object({ id: z.int(), name: z.string(), type: z.int() }))
      .check(z.meta({ description: 'The template in use' })),
    clone_template_id: z.nullable(z.int()).check(z.meta({ description: "The client's copy made by clone-template" })),
  })
  .check(
    z.meta({ id: 'Workflow', description: 'A lifecycle workflow the service ships, as configured for the client.' }),
  );

/** `data` of GET /client/workflows, and its `meta`. */
export const WorkflowList = z.object({ workflows: z.array(WorkflowView) });
export const WorkflowListMeta = z.object({
  total: z.int().check(z.gte(0)),
  enabled: z.int().check(z.gte(0), z.meta({ description: 'Workflows enabled for the client' })),
  max_workflows: z.int().check(z.gte(0), z.meta({ description: "The client's limit (plan or custom_max_workflows)" })),
});

interface Deps {
  clock: Clock;
  settings: SettingsStore;
  templates: TemplateStore;
  customizations: WorkflowCustomizationStore;
}

/**
 * GET /client/workflows: the catalog with this client's configuration — enabled or not (settings'
 * enabled_workflows, or the plan's default set), the overrides and effective values, and the template in use.
 * Reads: settings bundle and customizations in one parallel wave, then the client templates in use (if any).
 */
export async function listWorkflows(
  deps: Deps,
  clientId: number,
): Promise<z.output<typeof WorkflowList> & { meta: z.output<typeof WorkflowListMeta> }> {
  const [bundle, records] = await Promise.all([
    deps.settings.load(clientId, quotaMonthOf(deps.clock.now())),
    deps.customizations.getMany(clientId, WORKFLOW_IDS),
  ]);
  const plan = planOf(bundle.client?.plan ?? '');
  const limits = effectiveLimits(bundle.settings, plan);
  const byWorkflow = new Map<number, CustomizationRecord>(records.map((r) => [r.workflow_id, r]));
  const ownIds = [
    ...new Set(
      records.map((r) => r.template_id).filter((id): id is number => id !== undefined && !isSystemTemplateId(id)),
    ),
  ];
  const own = ownIds.length > 0 ? await deps.templates.getMany(clientId, ownIds) : [];
  const templateById = new Map<number, TemplateRecord>(own.map((t) => [t.id, t]));

  const workflows = WORKFLOWS.map((w): z.output<typeof WorkflowView> => {
    const record = byWorkflow.get(w.id);
    const customization = toCustomizationView(w, record);
    const template = isSystemTemplateId(customization.template_id)
      ? findSystemTemplate(customization.template_id)
      : templateById.get(customization.template_id);
    return {
      id: w.id,
      key: w.key,
      name: w.name,
      description: w.description,
      trigger: w.trigger,
      critical: w.critical,
      category: w.category,
      enabled: limits.enabledWorkflows.includes(w.id),
      defaults: {
        template_id: w.default_template_id,
        delay_minutes: w.default_delay_minutes,
        priority_score: w.default_priority_score,
        send_time_mode: w.default_send_time_mode,
        send_slot: w.default_send_slot,
        exit_events: [...w.default_exit_events],
        conversion_window_days: DEFAULT_CONVERSION_WINDOW_DAYS,
      },
      customization,
      template: template ? { id: template.id, name: template.name, type: template.type } : null,
      clone_template_id: record?.clone_template_id ?? null,
    };
  });
  return {
    workflows,
    meta: {
      total: workflows.length,
      enabled: workflows.filter((w) => w.enabled).length,
      max_workflows: limits.maxWorkflows,
    },
  };
}
