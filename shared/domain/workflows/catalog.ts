/**
 * The system lifecycle workflows the service ships. Ids are stable and part of the API (enabled_workflows,
 * /client/workflows/{workflow_id}/…); a workflow's default template is the system template with the same id.
 */

/**
 * 0: send as soon as the delay has passed; 1: at a preferred time of day in the contact's time zone; 2: at the
 * contact's most likely open hour, learnt from its human opens (optimal send time; a customization only, no workflow
 * defaults to it).
 */
export const SEND_TIME_MODES = { immediate: 0, preferredTime: 1, optimal: 2 } as const;
export type SendTimeMode = (typeof SEND_TIME_MODES)[keyof typeof SEND_TIME_MODES];

/**
 * What kind of mail a workflow sends, fixed by the catalog: `transactional` mail is about something the
 * contact must know to keep using the product (a failed payment) and reaches an unsubscribed contact; `marketing`
 * mail is everything else and stops when the contact unsubscribes. A suppressed address receives neither.
 */
export const WORKFLOW_CATEGORIES = ['transactional', 'marketing'] as const;
export type WorkflowCategory = (typeof WORKFLOW_CATEGORIES)[number];

/** What starts a workflow: an event `type`, or (alternatively) an event whose field has the given value. */
export interface WorkflowTrigger {
  event: string;
  /** Also triggers on an event of any type whose `field` equals `equals` (e.g. `upgrade: true`). */
  or_when?: { field: 'upgrade'; equals: true };
}

export interface WorkflowDefinition {
  id: number;
  key: string;
  name: string;
  description: string;
  trigger: WorkflowTrigger;
  default_delay_minutes: number;
  default_send_time_mode: SendTimeMode;
  /** With send time mode 1 and no preferred hour set: which of the client's send slots applies. */
  default_send_slot: 'morning' | 'afternoon' | null;
  /** Critical workflows may bypass per-contact daily caps when the client enables the bypass. */
  critical: boolean;
  /** Default priority (0–100) when several e-mails compete for a contact's daily cap. */
  default_priority_score: number;
  default_template_id: number;
  /**
   * Event types that mean the workflow's purpose is met or moot: the contact's unclaimed executions of it
   * are cancelled `goal_reached`. `upgrade` also matches any event with `upgrade: true`; `*` matches any event. An
   * event that starts the workflow never exits it.
   */
  default_exit_events: readonly string[];
  /** Transactional or marketing; a client cannot change it (docs/decisions/0106-transactional-and-marketing-mail.md says why). */
  category: WorkflowCategory;
}

const MINUTES_PER_DAY = 24 * 60;

export const WORKFLOWS: readonly WorkflowDefinition[] = [
  {
    id: 1,
    key: 'welcome',
    name: 'Welcome',
    description: 'Greets a new user right after sign-up and points to the first step.',
    trigger: { event: 'signup' },
    default_delay_minutes: 0,
    default_send_time_mode: SEND_TIME_MODES.immediate,
    default_send_slot: null,
    critical: false,
    default_priority_score: 90,
    default_template_id: 1,
    category: 'marketing',
    default_exit_events: [],
  },
  {
    id: 2,
    key: 'onboarding_tips',
    name: 'Onboarding tips',
    description: 'Three practical tips the morning after sign-up, when the first session is still fresh.',
    trigger: { event: 'signup' },
    default_delay_minutes: MINUTES_PER_DAY,
    default_send_time_mode: SEND_TIME_MODES.preferredTime,
    default_send_slot: 'morning',
    critical: false,
    default_priority_score: 60,
    default_template_id: 2,
    category: 'marketing',
    default_exit_events: ['subscription_cancelled'],
  },
  {
    id: 3,
    key: 'trial_ending',
    name: 'Trial ending',
    description: 'Reminds a trial user that the trial is about to end and what happens next.',
    trigger: { event: 'trial_ending' },
    default_delay_minutes: 0,
    default_send_time_mode: SEND_TIME_MODES.immediate,
    default_send_slot: null,
    critical: false,
    default_priority_score: 80,
    default_template_id: 3,
    category: 'marketing',
    default_exit_events: ['upgrade'],
  },
  {
    id: 4,
    key: 'upgrade_thanks',
    name: 'Upgrade thanks',
    description: 'Thanks a customer for upgrading and shows what the new plan unlocks.',
    trigger: { event: 'upgrade', or_when: { field: 'upgrade', equals: true } },
    default_delay_minutes: 0,
    default_send_time_mode: SEND_TIME_MODES.immediate,
    default_send_slot: null,
    critical: false,
    default_priority_score: 70,
    default_template_id: 4,
    category: 'marketing',
    default_exit_events: [],
  },
  {
    id: 5,
    key: 'payment_failed',
    name: 'Payment failed',
    description: 'Tells a customer a payment did not go through and how to fix it before access is affected.',
    trigger: { event: 'payment_failed' },
    default_delay_minutes: 0,
    default_send_time_mode: SEND_TIME_MODES.immediate,
    default_send_slot: null,
    critical: true,
    default_priority_score: 100,
    default_template_id: 5,
    category: 'transactional',
    default_exit_events: ['payment_succeeded'],
  },
  {
    id: 6,
    key: 'cancellation_winback',
    name: 'Cancellation win-back',
    description: 'Three days after a cancellation, asks what went wrong and invites the customer back.',
    trigger: { event: 'subscription_cancelled' },
    default_delay_minutes: 3 * MINUTES_PER_DAY,
    default_send_time_mode: SEND_TIME_MODES.immediate,
    default_send_slot: null,
    critical: false,
    default_priority_score: 50,
    default_template_id: 6,
    category: 'marketing',
    default_exit_events: ['upgrade', 'subscription_reactivated'],
  },
  {
    id: 7,
    key: 'feature_adoption',
    name: 'Feature adoption',
    description: 'After a user tries a feature, shows how to get more out of it.',
    trigger: { event: 'feature_used' },
    default_delay_minutes: 0,
    default_send_time_mode: SEND_TIME_MODES.immediate,
    default_send_slot: null,
    critical: false,
    default_priority_score: 40,
    default_template_id: 7,
    category: 'marketing',
    default_exit_events: [],
  },
  {
    id: 8,
    key: 're_engagement',
    name: 'Re-engagement',
    description: 'Reaches out to a user who has gone quiet, with what is new since the last visit.',
    trigger: { event: 'inactive' },
    default_delay_minutes: 0,
    default_send_time_mode: SEND_TIME_MODES.immediate,
    default_send_slot: null,
    critical: false,
    default_priority_score: 30,
    default_template_id: 8,
    category: 'marketing',
    default_exit_events: ['*'],
  },
];

export const WORKFLOW_IDS: readonly number[] = WORKFLOWS.map((w) => w.id);

/** The workflow's category; an id outside the catalog is marketing (the stricter rule). */
export const categoryOf = (workflowId: number): WorkflowCategory => findWorkflow(workflowId)?.category ?? 'marketing';

export function findWorkflow(id: number): WorkflowDefinition | undefined {
  return WORKFLOWS.find((w) => w.id === id);
}

/** The fields of an event a trigger looks at. */
export interface TriggeringEvent {
  type: string;
  upgrade?: boolean | null;
}

export function matchesTrigger(workflow: WorkflowDefinition, event: TriggeringEvent): boolean {
  if (event.type === workflow.trigger.event) return true;
  const extra = workflow.trigger.or_when;
  return extra !== undefined && event[extra.field] === extra.equals;
}

/** Every catalog workflow this event starts, in catalog order (before the client's enabled list is applied). */
export function workflowsTriggeredBy(event: TriggeringEvent): WorkflowDefinition[] {
  return WORKFLOWS.filter((w) => matchesTrigger(w, event));
}

/**
 * The workflows that run for a client: its `enabled_workflows` when set, otherwise the first `maxWorkflows`
 * workflows of the catalog (a fresh client gets the most fundamental ones its plan allows).
 */
export function effectiveEnabledWorkflows(enabled: readonly number[] | undefined, maxWorkflows: number): number[] {
  if (enabled) return [...enabled];
  return WORKFLOW_IDS.slice(0, Math.max(0, maxWorkflows));
}
