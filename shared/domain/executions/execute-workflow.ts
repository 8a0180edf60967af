import { randomUUID } from 'node:crypto';
import type { Clock, Mailer, OutboundEmail, RunMessage } from '../../platform.js';
import { dispatchExecution, type DispatchDeps } from '../engine/dispatch.js';
import { signLinkToken } from '../links/link-token.js';
import { SENT_STATUS, type SentEmailRecord } from '../sent-emails/sent-email-record.js';
import { effectiveLimits, planOf, SETTINGS_DEFAULTS } from '../settings/effective-settings.js';
import { quotaDayOf, quotaMonthOf } from '../settings/quota-period.js';
import { renderEmail } from '../templates/render-email.js';
import { findSystemTemplate } from '../templates/system-templates.js';
import { isSystemTemplateId } from '../templates/template-store.js';
import { findWorkflow } from '../workflows/catalog.js';
import { subscribedToTopic } from '../topics/contact-topics.js';
import { isSuppressionReason } from '../contacts/suppression.js';
import { GOAL_REACHED, goalReachedFor } from '../workflows/goals.js';
import { sentEmailIdOf } from '../sent-emails/sent-email-id.js';
import { claimedExecution, type DeliveryStore, type Reservation, type SendContext } from './delivery-store.js';
import { isAmbiguousSendError, isTenantPausedError, sendThrottleOf } from './send-failure.js';
import { throttleBackoffMs } from './throttle-backoff.js';
import { settleClaim, waitForLeaseEnd } from './settle-claim.js';
import { broadcastPlaceOf, EXECUTION_STATUS, journeyPlaceOf, type ExecutionRecord } from './execution-record.js';
import type { ExecutionStore, Finish } from './execution-store.js';
import { withFooter } from './compliance-footer.js';
import { nextQuotaWindow } from './quota-window.js';
import {
  carriesOwnSettings,
  executionCategoryOf,
  hasEnded,
  isBroadcastSend,
  isJourneySend,
} from './journey-execution.js';
import { dueAfter } from '../broadcasts/engine/due-of.js';
import { BROADCAST_CANCELLED } from '../broadcasts/engine/cancel-recipients.js';
import { wakeRunOf } from './wake-run.js';
import { effectiveSenderOf, isSandboxRecipient, type EffectiveSender } from '../domains/effective-sender.js';
import type { ServiceSenders } from '../domains/service-senders.js';
import type { SenderIdentities } from '../domains/sender-identities.js';
import type { SenderState } from '../domains/sender-state.js';

/** `onboardingFrom`: the sandbox's From; `reserved`: the service's own addresses, never a client's From. */
export interface SenderSettings extends ServiceSenders {
  /** HMAC secret of the public links (DESIGN.md §8). */
  linkSecret: string;
  /** Origin of /u and /v links. */
  publicBaseUrl: string;
  /** The clients' configuration set, for a client whose tenant names none of its own. */
  configurationSet?: string;
  /** A mailbox that unsubscribes its senders, offered as the List-Unsubscribe mailto (optional). */
  unsubscribeMailto?: string;
}

export interface ExecuteDeps extends DispatchDeps {
  clock: Clock;
  executions: ExecutionStore;
  delivery: DeliveryStore;
  mailer: Mailer;
  sender: SenderSettings;
  /** Asked whether a paused tenant sends again, once per PAUSED_RECHECK_MS. */
  senderIdentities: Pick<SenderIdentities, 'tenantStatus'>;
  /**
   * How long a claim (status 2) is left to its worker and to the provider's status notifications before its outcome
   * is decided without them (settle-claim.ts). Default DEFAULT_LEASE_MS; configuration EXECUTION_LEASE_SECONDS.
   */
  leaseMs?: number;
  /** [0, 1): the jitter of a throttled send's backoff (throttle-backoff.ts). Default Math.random. */
  random?: () => number;
  /** Where a failed wake of a journey's run is reported (wake-run.ts); default a structured warning line. */
  onWakeError?: (error: unknown, message: RunMessage) => void;
}

export type ExecuteOutcome =
  | { kind: 'missing' | 'duplicate' | 'not_due' | 'deferred' | 'waiting' }
  | { kind: 'finished'; status: Finish['status']; reason?: string };

export interface ExecuteOptions {
  /** The caller knows no worker holds a claim on this execution (local boot recovery): decide it now. */
  leaseVoid?: boolean;
}

export { sentEmailIdOf } from '../sent-emails/sent-email-id.js';

/**
 * Runs one execution exactly once (DESIGN.md §8). Read it (a duplicate delivery finds it finished; an early one is
 * sent back for its time; one found claimed is settled from evidence, see settle-claim.ts), read what the send needs,
 * decide (skip, cancel), then one claim transaction — 1 → 2 with the quota, the contact's daily cap and the
 * sent-email record — before SES. A full quota cancels the claim and defers (status stays 1). A failed send:
 * SES throttled it (rate or daily quota) → the claim is given back, the execution queued again (1) for after a
 * jittered backoff and sent itself as a new delayed message; this delivery is done (never a redelivery, so the
 * throttle never counts towards the dead-letter limit). SES said no otherwise (another 4xx: a paused account) → the
 * claim is released with `retry_pending` and the error thrown for the queue to retry; the outcome is unknown (reset,
 * timeout, 5xx) → the claim is kept, marked `outcome_unknown`, and the execution comes back at the lease end to be
 * decided from SES's notifications before anything is sent again.
 * The From is the client's effective sender (effective-sender.ts); a client without a verified domain is in the
 * sandbox, where any recipient but its dashboard users and SES's simulator is skipped `sandbox_recipient`. A send
 * names the client's SES tenant when it has one; a tenant SES paused defers the execution (`tenant_paused`), as the
 * deliverability guard's pause does, and is asked again once an hour.
 * A journey's send step is such an execution: it carries its journey's category and topic, and the journey's state
 * comes from the client's journey index in the load (paused → deferred `journey_paused`, archived → cancelled
 * `journey_archived`). However it ends, its run is woken after the ending write (wake-run.ts: one SQS send).
 * Requests for one send: read, load, claim, record (4 DynamoDB) + 1 SES; in the sandbox one Query of the users more;
 * a journey's send one SQS send more.
 */
export async function executeWorkflow(
  deps: ExecuteDeps,
  clientId: number,
  executionId: number,
  options: ExecuteOptions = {},
): Promise<ExecuteOutcome> {
  const now = deps.clock.now();
  let execution = await deps.executions.get(clientId, executionId);
  if (!execution) return { kind: 'missing' };
  if (execution.status === EXECUTION_STATUS.executing && execution.retry_pending !== true) {
    const settled = await settleClaim(deps, execution, now, options);
    if (settled.kind !== 'released') return settled;
    execution = settled.execution;
  }
  const retrying = execution.status === EXECUTION_STATUS.executing && execution.retry_pending === true;
  if (execution.status !== EXECUTION_STATUS.queued && !retrying) {
    // Already ended: its ending's wake may have been lost with its worker, so this delivery wakes the run again (a
    // run that moved on meanwhile finds the wake's seq stale).
    if (hasEnded(execution.status)) await wakeRunOf(deps, execution);
    return { kind: 'duplicate' };
  }
  if (Date.parse(execution.scheduled_for) > now.getTime()) {
    await dispatchExecution(
      deps,
      { client_id: clientId, execution_id: execution.id },
      new Date(execution.scheduled_for),
      now,
    );
    return { kind: 'not_due' };
  }

  const at = now.toISOString();
  const context = await deps.delivery.load(execution);
  if (execution.holdout) {
    // An A/B test's holdout gets the winner's template and subject. Before the winner (released by hand or by a
    // redelivery) it is left waiting in its holdout partition, which the pacer releases once the winner is chosen.
    const won = context.broadcast?.winner;
    if (!won) return { kind: 'not_due' };
    const { subject_override: _theirs, ...rest } = execution;
    execution = {
      ...rest,
      template_id: won.template_id,
      ...(won.subject !== undefined ? { subject_override: won.subject } : {}),
    };
  }
  const verdict = checkSendable(execution, context, now);
  if (verdict) return finish(deps, execution, { ...verdict, at });
  if (context.client?.sending_paused_at) {
    // The deliverability guard paused the client: nothing is dropped, the execution waits (DESIGN.md §5 deferral).
    return deferPaused(deps, execution, now, 'sending_paused', context);
  }
  // A paused journey holds its sends as a paused client does; resumed, they go out.
  if (context.journey?.status === 'paused') return deferPaused(deps, execution, now, JOURNEY_PAUSED);
  // A paused broadcast's recipient goes back to the due index, due now: resumed, its pacer releases it again.
  if (isBroadcastSend(execution) && context.broadcast?.status === 'paused') {
    await deps.executions.defer(execution, at, BROADCAST_PAUSED, at, { duePartitions: context.broadcast.shards ?? 1 });
    return { kind: 'deferred' };
  }
  const sending = effectiveSenderOf({
    settings: context.settings,
    clientName: context.client!.name,
    sender: context.sender,
    onboardingFrom: deps.sender.onboardingFrom,
    reserved: deps.sender.reserved,
  });
  if (sending.sandbox && !isSandboxRecipient(context.contact!.email, await deps.delivery.sandboxRecipients(clientId))) {
    return finish(deps, execution, { status: EXECUTION_STATUS.skipped, reason: 'sandbox_recipient', at });
  }
  if (sending.tenant && context.sender?.tenant_paused_at) {
    if (await tenantStillPaused(deps, clientId, sending.tenant, context.sender, now)) {
      return deferPaused(deps, execution, now, TENANT_PAUSED, context);
    }
  }

  const capLimit = dailyCapOf(execution, context);
  if (yieldsToHigherPriority(execution, context, capLimit)) {
    return finish(deps, execution, { status: EXECUTION_STATUS.skipped, reason: 'frequency_cap', at });
  }

  const template = templateOf(execution, context);
  if (!template) return finish(deps, execution, { status: EXECUTION_STATUS.failed, reason: 'template_not_found', at });
  const reservation = buildReservation(deps.sender, execution, context, template, sending, now);

  const claimed = await deps.delivery.claim(reservation);
  if (claimed === 'taken') return { kind: 'duplicate' };
  if (claimed === 'goal_reached') {
    // An exit event landed between the load and the claim: read the contact again for its id (a rare race).
    const goal = goalReachedFor((await deps.delivery.load(execution)).contact, execution);
    return finish(deps, execution, {
      status: EXECUTION_STATUS.cancelled,
      reason: GOAL_REACHED,
      ...(goal ? { goalEventId: goal.event_id } : {}),
      at,
    });
  }
  if (claimed === 'contact_cap')
    return finish(deps, execution, { status: EXECUTION_STATUS.skipped, reason: 'frequency_cap', at });
  if (claimed === 'quota_day' || claimed === 'quota_month') {
    const { when, reason } = nextQuotaWindow(claimed, reservation.quota, now);
    const paced = pacedBroadcastOf(execution, context);
    if (paced) {
      // Back to the due index for the quota's next window, under the recipient's own send rules again (a spill to
      // 00:00 UTC must not land in its quiet hours); its pacer finds it then, so it never jumps the pace.
      const due = dueAfter(when, execution.send_zone ?? 'UTC', context.settings);
      await deps.executions.defer(execution, due.toISOString(), reason, at, paced);
      return { kind: 'deferred' };
    }
    await deps.executions.defer(execution, when.toISOString(), reason, at);
    await dispatchExecution(deps, { client_id: clientId, execution_id: execution.id }, when, now);
    return { kind: 'deferred' };
  }

  let result: Awaited<ReturnType<Mailer['send']>>;
  try {
    result = await deps.mailer.send(outboundOf(deps.sender, reservation, sending));
  } catch (error) {
    return sendFailed(deps, reservation, sending, error);
  }
  const doneAt = deps.clock.now().toISOString();
  if (result.kind === 'rejected') {
    await deps.delivery.recordRejected(reservation, result.reason, doneAt, randomUUID());
    await wakeRunOf(deps, execution);
    return { kind: 'finished', status: EXECUTION_STATUS.failed, reason: result.reason };
  }
  const recorded = await deps.delivery.recordSent(reservation, result.providerMessageId, doneAt, randomUUID());
  // `moved`: a status notification of this very e-mail completed the execution first — the same send, recorded (and
  // the run woken by whoever recorded it).
  if (recorded !== 'done') return { kind: 'duplicate' };
  await wakeRunOf(deps, execution);
  return { kind: 'finished', status: EXECUTION_STATUS.completed };
}

/**
 * The provider call failed. SES throttled it (nothing sent): give the claim back, queue the execution for after the
 * backoff and send it a new delayed message. If that send fails, the error is thrown and the original message comes
 * back (and the stuck-execution sweep finds an execution queued past its due time). SES said no otherwise: release
 * the claim and throw, so the queue retries with its backoff. The outcome is unknown: keep the claim, say why, and
 * come back at the lease end, when SES's notifications (or their absence) decide it — never a blind second send.
 */
async function sendFailed(
  deps: ExecuteDeps,
  r: Reservation,
  sending: EffectiveSender,
  error: unknown,
): Promise<ExecuteOutcome> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const name = (error as Error)?.name ?? 'error';
  const claimed = claimedExecution(r);
  if (sending.tenant && isTenantPausedError(error)) {
    // SES paused the client's tenant (its reputation policy, or an operator): nothing was sent, and nothing is
    // wrong with this e-mail. The claim goes back, the execution waits as a paused client's do, and the pause is
    // recorded for the other executions and the settings.
    const when = new Date(now.getTime() + PAUSED_RECHECK_MS);
    const reason = `${TENANT_PAUSED}: ${name}`;
    if (!(await deps.delivery.deferClaim(claimed, when.toISOString(), reason, at, 'pause')))
      return { kind: 'duplicate' };
    await deps.delivery.markTenantPaused(r.execution.client_id, (error as Error).message || name, at);
    await dispatchExecution(deps, { client_id: r.execution.client_id, execution_id: r.execution.id }, when, now);
    return { kind: 'deferred' };
  }
  const throttle = sendThrottleOf(error);
  if (throttle) {
    const when = new Date(
      now.getTime() + throttleBackoffMs(throttle, r.execution.throttled ?? 0, deps.random ?? Math.random),
    );
    const reason = `${throttle === 'rate' ? 'send_throttled' : 'send_daily_quota'}: ${name}`;
    if (!(await deps.delivery.deferClaim(claimed, when.toISOString(), reason, at))) return { kind: 'duplicate' };
    await dispatchExecution(deps, { client_id: r.execution.client_id, execution_id: r.execution.id }, when, now);
    return { kind: 'deferred' };
  }
  if (!isAmbiguousSendError(error)) {
    await deps.delivery.releaseClaim(claimed, `send_retry: ${name}`, at);
    throw error;
  }
  if (!(await deps.delivery.markOutcomeUnknown(claimed, `send_outcome_unknown: ${name}`, at)))
    return { kind: 'duplicate' };
  // The mark restarted the lease at `at`.
  return waitForLeaseEnd(deps, { ...claimed, updated_at: at }, new Date(at));
}

async function finish(deps: ExecuteDeps, execution: ExecutionRecord, outcome: Finish): Promise<ExecuteOutcome> {
  // Not done: another worker moved it first, and wakes the run itself if it ended it.
  if (!(await deps.executions.finish(execution, outcome))) return { kind: 'duplicate' };
  await wakeRunOf(deps, execution);
  return { kind: 'finished', status: outcome.status, ...(outcome.reason ? { reason: outcome.reason } : {}) };
}

/** The contact's daily cap that applies to this execution; undefined when a critical workflow bypasses it. */
function dailyCapOf(execution: ExecutionRecord, context: SendContext): number | undefined {
  const settings = context.settings;
  const bypass = execution.critical && (settings?.enable_critical_bypass ?? SETTINGS_DEFAULTS.enable_critical_bypass);
  return bypass ? undefined : (settings?.max_emails_per_day ?? SETTINGS_DEFAULTS.max_emails_per_day);
}

/**
 * When e-mails compete for a contact's day (DESIGN.md §5): the slots left go to the waiting executions with the
 * higher priority_score (ties: the earlier id). This one yields when those outrank it and already fill every slot
 * left; it is then skipped with `frequency_cap`, and the cap counter's condition in the claim stays the final guard.
 */
export function yieldsToHigherPriority(
  execution: ExecutionRecord,
  context: SendContext,
  limit: number | undefined,
): boolean {
  if (limit === undefined) return false;
  const left = limit - context.cap.sent;
  if (left <= 0) return true;
  const outranking = Object.entries(context.cap.pending).filter(([id, priority]) => {
    if (Number(id) === execution.id) return false;
    return priority > execution.priority_score || (priority === execution.priority_score && Number(id) < execution.id);
  });
  return outranking.length >= left;
}

/** A paused client's executions look again this often (status stays 1) until an admin resumes sending. */
export const PAUSED_RECHECK_MS = 60 * 60 * 1000;

/** The deferral reason of an execution whose client's SES tenant is paused. */
export const TENANT_PAUSED = 'tenant_paused';
/** The deferral reason of a journey's send while its journey is paused. */
export const JOURNEY_PAUSED = 'journey_paused';
/** Why a journey's send is cancelled: its journey was archived (it left the client's journey index). */
export const JOURNEY_ARCHIVED = 'journey_archived';
/** The deferral reason of a broadcast's recipient while its broadcast is paused. */
export const BROADCAST_PAUSED = 'broadcast_paused';
export { BROADCAST_CANCELLED };

/**
 * The execution waits PAUSED_RECHECK_MS (status stays 1) and is sent itself again then; a broadcast's recipient
 * waits in its due index instead, where its pacer finds it then.
 */
async function deferPaused(
  deps: ExecuteDeps,
  execution: ExecutionRecord,
  now: Date,
  reason: string = TENANT_PAUSED,
  context?: SendContext,
): Promise<ExecuteOutcome> {
  const when = new Date(now.getTime() + PAUSED_RECHECK_MS);
  const paced = context ? pacedBroadcastOf(execution, context) : undefined;
  await deps.executions.defer(execution, when.toISOString(), reason, now.toISOString(), paced);
  if (!paced) await dispatchExecution(deps, { client_id: execution.client_id, execution_id: execution.id }, when, now);
  return { kind: 'deferred' };
}

/**
 * A recipient whose broadcast's pacer still runs (sending or paused): its deferrals go back to the due index. Once the
 * broadcast is sent its pacer is done, and a late deferral waits for its own message as any execution's does.
 */
function pacedBroadcastOf(execution: ExecutionRecord, context: SendContext): { duePartitions: number } | undefined {
  const status = context.broadcast?.status;
  return isBroadcastSend(execution) && (status === 'sending' || status === 'paused')
    ? { duePartitions: context.broadcast!.shards ?? 1 }
    : undefined;
}

/**
 * Whether the client's tenant, recorded as paused, still is. Within PAUSED_RECHECK_MS of the last look the record is
 * believed (no SES call); after that SES is asked once: still DISABLED → the look is recorded, otherwise the pause is
 * removed and the e-mail goes out. A failing GetTenant is thrown: the queue retries, as for any SES fault.
 */
async function tenantStillPaused(
  deps: ExecuteDeps,
  clientId: number,
  tenant: string,
  sender: SenderState,
  now: Date,
): Promise<boolean> {
  const pausedAt = sender.tenant_paused_at!;
  const lastLook = Date.parse(sender.tenant_checked_at ?? pausedAt);
  if (now.getTime() - lastLook < PAUSED_RECHECK_MS) return true;
  const { status, cause } = await deps.senderIdentities.tenantStatus(tenant);
  if (status === 'DISABLED') {
    await deps.delivery.markTenantPaused(
      clientId,
      cause ?? sender.tenant_paused_reason ?? 'paused by SES',
      now.toISOString(),
    );
    return true;
  }
  await deps.delivery.clearTenantPause(clientId, pausedAt);
  return false;
}

/** Why this execution must not send now (skip 6 / cancel 5), or undefined when it may. */
function checkSendable(execution: ExecutionRecord, context: SendContext, now: Date): Omit<Finish, 'at'> | undefined {
  const { client, contact, settings } = context;
  if (!client || client.status === 'suspended') return { status: EXECUTION_STATUS.skipped, reason: 'client_suspended' };
  if (!contact) return { status: EXECUTION_STATUS.cancelled, reason: 'contact_erased' };
  // An exit event processed after the execution was created ends it, even if its own cancel missed it.
  const goal = goalReachedFor(contact, execution);
  if (goal) return { status: EXECUTION_STATUS.cancelled, reason: GOAL_REACHED, goalEventId: goal.event_id };
  if (!contact.is_subscribed) {
    // A dead or complaining address gets nothing; an unsubscribed one still gets transactional mail.
    if (isSuppressionReason(contact.unsubscribe_reason))
      return { status: EXECUTION_STATUS.skipped, reason: 'suppressed' };
    if (executionCategoryOf(execution) !== 'transactional')
      return { status: EXECUTION_STATUS.skipped, reason: 'unsubscribed' };
  }
  if (leftTopic(execution, context)) return { status: EXECUTION_STATUS.skipped, reason: 'topic_unsubscribed' };
  if (isJourneySend(execution)) {
    // A journey is on or off by its own state (the index lists live and paused ones), not by enabled_workflows.
    if (!context.journey) return { status: EXECUTION_STATUS.cancelled, reason: JOURNEY_ARCHIVED };
  } else if (isBroadcastSend(execution)) {
    if (!context.broadcast || context.broadcast.status === 'cancelled')
      return { status: EXECUTION_STATUS.cancelled, reason: BROADCAST_CANCELLED };
  } else if (
    !carriesOwnSettings(execution) &&
    !effectiveLimits(settings, planOf(client.plan)).enabledWorkflows.includes(execution.workflow_id)
  ) {
    return { status: EXECUTION_STATUS.skipped, reason: 'workflow_disabled' };
  }
  const timeoutDays = settings?.queue_timeout_days ?? SETTINGS_DEFAULTS.queue_timeout_days;
  if (now.getTime() - Date.parse(execution.scheduled_for) > timeoutDays * 86_400_000) {
    return { status: EXECUTION_STATUS.cancelled, reason: 'queue_timeout' };
  }
  return undefined;
}

/**
 * Marketing mail of a workflow whose customization (or a journey whose settings) names a topic the contact left: its
 * own choice, else the topic's default. A topic id that names no topic any more (deleted meanwhile) is no topic.
 */
function leftTopic(execution: ExecutionRecord, context: SendContext): boolean {
  const topic = topicOf(execution, context);
  return topic !== undefined && !subscribedToTopic(context.contact!, topic);
}

/**
 * The topic a marketing e-mail of this execution goes under, if that topic exists: a journey's send carries its
 * journey's `topic_id`; an execution of the 8 takes its workflow customization's.
 */
function topicOf(execution: ExecutionRecord, context: SendContext) {
  const topicId = carriesOwnSettings(execution) ? execution.topic_id : context.customization?.topic_id;
  if (topicId === undefined || topicId === null || executionCategoryOf(execution) !== 'marketing') return undefined;
  return context.topics?.topics.find((t) => t.id === topicId);
}

/**
 * The template chosen when the execution was created: a client template (live) or the system one; a broadcast's own
 * subject (validated as a template's subject is) replaces the template's.
 */
function templateOf(execution: ExecutionRecord, context: SendContext) {
  const template = isSystemTemplateId(execution.template_id)
    ? findSystemTemplate(execution.template_id)
    : context.template && !context.template.deleted_at
      ? context.template
      : undefined;
  return template && execution.subject_override !== undefined
    ? { ...template, subject: execution.subject_override }
    : template;
}

function buildReservation(
  sender: SenderSettings,
  execution: ExecutionRecord,
  context: SendContext,
  template: NonNullable<ReturnType<typeof templateOf>>,
  sending: EffectiveSender,
  now: Date,
): Reservation {
  const contact = context.contact!;
  const client = context.client!;
  const settings = context.settings;
  const sentEmailId = sentEmailIdOf(execution);
  const origin = sender.publicBaseUrl.replace(/\/+$/, '');
  const token = (purpose: 'u' | 'v') =>
    signLinkToken(sender.linkSecret, { purpose, clientId: execution.client_id, sentEmailId });
  const unsubscribeUrl = `${origin}/u/${token('u')}`;
  const browserUrl = `${origin}/v/${token('v')}`;
  const rendered = renderEmail({
    template,
    contact,
    branding: {
      settings,
      client,
      links: { publicBaseUrl: origin, unsubscribeUrl, browserUrl },
      from: { address: sending.fromAddress, name: sending.fromName },
    },
    vars: execution.event ? { event: execution.event } : undefined,
  });
  const body = withFooter(rendered, {
    companyAddress: settings?.company_address,
    unsubscribeUrl,
    category: executionCategoryOf(execution),
  });
  const { fromAddress, fromName } = sending;
  const at = now.toISOString();
  const limits = effectiveLimits(settings, planOf(client.plan));
  const capLimit = dailyCapOf(execution, context);
  const sentEmail: SentEmailRecord = {
    id: sentEmailId,
    client_id: execution.client_id,
    contact_id: contact.id,
    execution_id: execution.id,
    workflow_id: execution.workflow_id,
    event_id: execution.event_id,
    email_template_id: template.id,
    email_template_name: template.name ?? findWorkflow(execution.workflow_id)?.name ?? context.journey?.name ?? '',
    from_email: fromName ? `${quoteName(fromName)} <${fromAddress}>` : fromAddress,
    to_email: contact.email,
    ...(settings?.email_reply_to ? { reply_to: settings.email_reply_to } : {}),
    subject: rendered.subject,
    html_body: body.html,
    text_body: body.text,
    browser_url: browserUrl,
    ...(topicOf(execution, context) ? { topic_id: topicOf(execution, context)!.id } : {}),
    ...journeyPlaceOf(execution),
    ...broadcastPlaceOf(execution),
    status: SENT_STATUS.queued,
    status_updated_at: at,
    created_at: at,
  };
  return {
    execution,
    sentEmail,
    unsubscribeUrl,
    log: { id: randomUUID(), created_at: at, status: SENT_STATUS.queued },
    quota: {
      day: quotaDayOf(now),
      dayLimit: limits.emailsPerDay,
      month: quotaMonthOf(now),
      monthLimit: limits.emailsPerMonth,
    },
    at,
    ...(capLimit === undefined ? {} : { contactCap: { limit: capLimit } }),
  };
}

/** A display name as RFC 5322 wants it: quoted, with quotes and backslashes escaped, on one line. */
const quoteName = (name: string) => `"${name.replace(/[\r\n]+/g, ' ').replace(/(["\\])/g, '\\$1')}"`;

/** RFC 8058 one-click unsubscribe headers; a mailto alternative only when the deployment has a mailbox for it. */
function unsubscribeHeaders(sender: SenderSettings, unsubscribeUrl: string): Record<string, string> {
  const mailto = sender.unsubscribeMailto ? `, <mailto:${sender.unsubscribeMailto}?subject=unsubscribe>` : '';
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>${mailto}`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

function outboundOf(sender: SenderSettings, r: Reservation, sending: EffectiveSender): OutboundEmail {
  const e = r.sentEmail;
  return {
    from: e.from_email,
    to: e.to_email,
    ...(e.reply_to ? { replyTo: [e.reply_to] } : {}),
    subject: e.subject,
    html: e.html_body,
    text: e.text_body,
    // Transactional mail has no one-click unsubscribe: its link (in the body) opens the preference page.
    ...(executionCategoryOf(r.execution) === 'marketing'
      ? { headers: unsubscribeHeaders(sender, r.unsubscribeUrl) }
      : {}),
    tags: { client_id: String(e.client_id), execution_id: String(e.execution_id), sent_email_id: e.id },
    // The tenant's own configuration set, else the clients' one (it is associated with every tenant).
    ...(sending.configurationSet || sender.configurationSet
      ? { configurationSet: sending.configurationSet ?? sender.configurationSet }
      : {}),
    ...(sending.tenant ? { tenant: sending.tenant } : {}),
  };
}
