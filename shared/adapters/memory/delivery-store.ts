import {
  claimedEmailIdOf,
  claimOf,
  type ClaimOutcome,
  type DeliveryStore,
  type Reservation,
  type SendContext,
  type SettleOutcome,
} from '../../domain/executions/delivery-store.js';
import {
  EXECUTION_STATUS,
  journeyPlaceOf,
  messageZoneOf,
  type ExecutionClaim,
  type ExecutionRecord,
} from '../../domain/executions/execution-record.js';
import { SENT_STATUS } from '../../domain/sent-emails/sent-email-record.js';
import { isSystemTemplateId } from '../../domain/templates/template-store.js';
import {
  clientKey,
  copy,
  MemoryEngineData,
  MemoryTransactionCancelled,
  sentEmailKey,
  stored,
  type MemoryAggregates,
  type MemoryQuotaCounter,
} from './engine-data.js';
import { recordKey } from './workflow-data.js';
import { executionCategoryOf, isJourneySend } from '../../domain/executions/journey-execution.js';
import { goalReachedFor } from '../../domain/workflows/goals.js';
import { markSent, unlistOpenExecution } from './contact-goals.js';
import { quotaShardOf } from '../../domain/executions/quota-shards.js';

const quotaShardFor = (r: Reservation) => quotaShardOf(r.execution.id, r.quota);
const dayAttribute = (day: string): string => `d${day.slice(8, 10)}`;
/** A counter below its limit, as `attribute_not_exists(#n) OR #n < :limit` reads it: an absent counter always passes. */
const below = (value: number | undefined, limit: number): boolean => value === undefined || value < limit;

/**
 * DeliveryStore in memory, with the port's contract: the claim checks every condition (execution queued or waiting to
 * retry, unchanged and due; client quota; contact day cap; sent-email record absent or still queued) before writing any,
 * and answers the first that fails; the later writes fail loudly (MemoryTransactionCancelled) where DynamoDB's
 * transaction would be cancelled. The month's count is mirrored into the MemorySettingsStore, which reads it.
 */
export class MemoryDeliveryStore implements DeliveryStore {
  constructor(
    /** Shared with the other engine stores (as one table); a test may give it the journeys' reads. */
    readonly aggregates: MemoryAggregates,
    readonly data: MemoryEngineData = new MemoryEngineData(),
  ) {}

  async load(execution: ExecutionRecord): Promise<SendContext> {
    const c = execution.client_id;
    const contact = this.aggregates.contacts.contacts.get(clientKey(c, execution.contact_id));
    const settings = this.aggregates.settings.settings.get(c);
    const client = this.aggregates.clients.clients.get(c);
    const journeySend = isJourneySend(execution);
    const customization = journeySend
      ? undefined
      : this.aggregates.workflowData.customizations.get(recordKey(c, execution.workflow_id));
    const journey = journeySend
      ? this.aggregates.journeys?.indexOf(c)?.journeys.find((j) => j.id === execution.workflow_id)
      : undefined;
    const template = isSystemTemplateId(execution.template_id)
      ? undefined
      : this.aggregates.workflowData.templates.get(recordKey(c, execution.template_id));
    const cap = this.data.peekDayCap(c, execution.contact_id, execution.cap_day);
    const topics = executionCategoryOf(execution) === 'marketing' ? this.aggregates.topics?.peek(c) : undefined;
    const sender = this.aggregates.settings.senders.get(c);
    return {
      ...(sender ? { sender: copy(sender) } : {}),
      ...(topics ? { topics: copy(topics) } : {}),
      ...(journey ? { journey: copy(journey) } : {}),
      contact: contact && copy(contact),
      settings: settings && copy(settings),
      client: client && copy(client),
      customization: customization && copy(customization),
      template: template && copy(template),
      cap: {
        sent: cap?.sent ?? 0,
        pending: Object.fromEntries([...(cap?.pending ?? [])].map(([id, p]) => [String(id), p])),
      },
    };
  }

  async sandboxRecipients(clientId: number): Promise<string[]> {
    return ((await this.aggregates.users?.list(clientId)) ?? []).map((user) => user.email);
  }

  async markTenantPaused(clientId: number, reason: string, at: string): Promise<void> {
    const sender = this.aggregates.settings.senders.get(clientId);
    if (!sender) return;
    Object.assign(sender, {
      tenant_paused_at: sender.tenant_paused_at ?? at,
      tenant_paused_reason: reason,
      tenant_checked_at: at,
    });
  }

  async clearTenantPause(clientId: number, pausedAt: string): Promise<void> {
    const sender = this.aggregates.settings.senders.get(clientId);
    if (sender?.tenant_paused_at !== pausedAt) return;
    delete sender.tenant_paused_at;
    delete sender.tenant_paused_reason;
    delete sender.tenant_checked_at;
  }

  async claim(r: Reservation): Promise<ClaimOutcome> {
    const c = r.execution.client_id;
    const execution = this.data.executions.get(clientKey(c, r.execution.id));
    // The port's gate: 1 → 2, or 2 only while retry_pending (a duplicate run of a retry must not claim it again).
    const claimable =
      execution?.status === EXECUTION_STATUS.queued ||
      (execution?.status === EXECUTION_STATUS.executing && execution.retry_pending === true);
    if (
      !execution ||
      !claimable ||
      execution.status !== r.execution.status ||
      execution.updated_at !== r.execution.updated_at ||
      !(execution.scheduled_for <= r.at)
    ) {
      return 'taken';
    }
    const { counter, limits } = this.quotaOf(r);
    const day = dayAttribute(r.quota.day);
    if (!below(counter['sent'], limits.month)) return 'quota_month';
    if (!below(counter[day], limits.day)) return 'quota_day';
    // The send-time goal check's condition on the contact, in the transaction's order.
    if (goalReachedFor(this.aggregates.contacts.contacts.get(clientKey(c, r.execution.contact_id)), r.execution))
      return 'goal_reached';
    const cap = r.contactCap ? this.data.dayCap(c, r.execution.contact_id, r.execution.cap_day) : undefined;
    if (cap && !below(cap.sent, r.contactCap!.limit)) return 'contact_cap';
    const email = this.data.sentEmails.get(sentEmailKey(c, r.sentEmail.id));
    // A retry of a send that failed transiently finds its own record, still queued.
    if (email && email.status !== SENT_STATUS.queued) return 'taken';

    this.data.changeExecution(execution, (e) => {
      Object.assign(e, { status: EXECUTION_STATUS.executing, updated_at: r.at, claim: claimOf(r) });
      delete e.retry_pending;
      delete e.outcome_unknown;
    });
    this.raiseQuota(r, 1);
    if (cap) {
      cap.sent = (cap.sent ?? 0) + 1;
      cap.pending.delete(r.execution.id);
    }
    this.data.sentEmails.set(sentEmailKey(c, r.sentEmail.id), stored(r.sentEmail));
    this.putLog(c, r.sentEmail.id, r.log);
    return 'claimed';
  }

  async recordSent(r: Reservation, providerMessageId: string, at: string, logId: string): Promise<SettleOutcome> {
    const c = r.execution.client_id;
    if (this.data.executions.get(clientKey(c, r.execution.id))?.status !== EXECUTION_STATUS.executing) return 'moved';
    const { execution, contact } = this.executingWithContact(r);
    const email = this.emailOf(r);
    Object.assign(email, { provider_message_id: providerMessageId, status: SENT_STATUS.sent, status_updated_at: at });
    this.putLog(c, r.sentEmail.id, {
      id: logId,
      created_at: at,
      status: SENT_STATUS.sent,
      provider_message_id: providerMessageId,
    });
    this.data.providerMessages.set(providerMessageId, {
      client_id: c,
      sent_email_id: r.sentEmail.id,
      contact_id: r.execution.contact_id,
      workflow_id: r.execution.workflow_id,
      created_at: at,
      ...messageZoneOf(r.execution),
      ...journeyPlaceOf(r.execution),
    });
    this.data.changeExecution(execution, (e) => {
      Object.assign(e, {
        status: EXECUTION_STATUS.completed,
        processed_at: at,
        updated_at: at,
        sent_email_id: r.sentEmail.id,
      });
      endClaim(e);
    });
    contact.last_workflow_at = at;
    contact.total_emails_sent = (contact.total_emails_sent ?? 0) + 1;
    contact.active_workflow_count = (contact.active_workflow_count ?? 0) - 1;
    unlistOpenExecution(contact, execution.id);
    markSent(contact, execution.workflow_id, at, journeyPlaceOf(execution));
    if (execution.broadcast_id !== undefined)
      this.data.contactEngagement.apply(c, execution.contact_id, { source: `B${execution.broadcast_id}`, sentAt: at });
    return 'done';
  }

  async confirmSent(
    seen: ExecutionRecord,
    providerMessageId: string,
    reason: string,
    at: string,
  ): Promise<SettleOutcome> {
    const c = seen.client_id;
    const execution = this.data.executions.get(clientKey(c, seen.id));
    if (execution?.status !== EXECUTION_STATUS.executing || execution.updated_at !== seen.updated_at) return 'moved';
    const sentEmailId = claimedEmailIdOf(seen);
    const email = this.data.sentEmails.get(sentEmailKey(c, sentEmailId));
    const contact = this.aggregates.contacts.contacts.get(clientKey(c, seen.contact_id));
    if (!email) throw new MemoryTransactionCancelled(`sent e-mail ${sentEmailId} does not exist`);
    if (!contact) throw new MemoryTransactionCancelled(`contact ${seen.contact_id} does not exist`);
    Object.assign(email, { provider_message_id: providerMessageId, status: SENT_STATUS.sent, status_updated_at: at });
    this.data.providerMessages.set(providerMessageId, {
      client_id: c,
      sent_email_id: sentEmailId,
      contact_id: seen.contact_id,
      workflow_id: seen.workflow_id,
      created_at: at,
      ...messageZoneOf(seen),
      ...journeyPlaceOf(seen),
    });
    this.data.changeExecution(execution, (e) => {
      Object.assign(e, {
        status: EXECUTION_STATUS.completed,
        processed_at: at,
        updated_at: at,
        sent_email_id: sentEmailId,
        reason,
      });
      endClaim(e);
    });
    contact.last_workflow_at = at;
    contact.total_emails_sent = (contact.total_emails_sent ?? 0) + 1;
    contact.active_workflow_count = (contact.active_workflow_count ?? 0) - 1;
    unlistOpenExecution(contact, execution.id);
    markSent(contact, execution.workflow_id, at, journeyPlaceOf(execution));
    if (execution.broadcast_id !== undefined)
      this.data.contactEngagement.apply(c, execution.contact_id, { source: `B${execution.broadcast_id}`, sentAt: at });
    return 'done';
  }

  async findEvidence(execution: ExecutionRecord): Promise<string | undefined> {
    const logs = this.data.sentEmailLogs.get(sentEmailKey(execution.client_id, claimedEmailIdOf(execution)));
    return [...(logs?.values() ?? [])].find((log) => log.provider_message_id !== undefined)?.provider_message_id;
  }

  async markOutcomeUnknown(seen: ExecutionRecord, reason: string, at: string): Promise<boolean> {
    const execution = this.data.executions.get(clientKey(seen.client_id, seen.id));
    if (execution?.status !== EXECUTION_STATUS.executing || execution.updated_at !== seen.updated_at) return false;
    Object.assign(execution, { outcome_unknown: true, reason, updated_at: at });
    return true;
  }

  async recordRejected(r: Reservation, reason: string, at: string, logId: string): Promise<void> {
    const c = r.execution.client_id;
    const { execution, contact } = this.executingWithContact(r);
    const email = this.emailOf(r);
    Object.assign(email, { status: SENT_STATUS.failed, status_updated_at: at });
    this.putLog(c, r.sentEmail.id, { id: logId, created_at: at, status: SENT_STATUS.failed, detail: reason });
    this.data.changeExecution(execution, (e) => {
      Object.assign(e, {
        status: EXECUTION_STATUS.failed,
        processed_at: at,
        updated_at: at,
        reason,
        sent_email_id: r.sentEmail.id,
      });
      endClaim(e);
    });
    this.giveBack(r.execution, claimOf(r));
    contact.active_workflow_count = (contact.active_workflow_count ?? 0) - 1;
    unlistOpenExecution(contact, execution.id);
  }

  async releaseClaim(seen: ExecutionRecord, reason: string, at: string): Promise<boolean> {
    return this.endClaimWithoutSend(seen, (execution) =>
      Object.assign(execution, { retry_pending: true, reason, updated_at: at, attempt: (execution.attempt ?? 0) + 1 }),
    );
  }

  async deferClaim(
    seen: ExecutionRecord,
    scheduledFor: string,
    reason: string,
    at: string,
    cause: 'throttle' | 'pause' = 'throttle',
  ): Promise<boolean> {
    return this.endClaimWithoutSend(seen, (execution) => {
      Object.assign(execution, {
        status: EXECUTION_STATUS.queued,
        scheduled_for: scheduledFor,
        reason,
        updated_at: at,
        ...(cause === 'throttle' ? { throttled: (execution.throttled ?? 0) + 1 } : {}),
        deferrals: (execution.deferrals ?? 0) + 1,
      });
      delete execution.retry_pending;
    });
  }

  /** A claim ended with nothing sent (the port's releaseClaim, deferClaim): counters given back, its queued log removed. */
  private endClaimWithoutSend(seen: ExecutionRecord, change: (execution: ExecutionRecord) => void): boolean {
    const c = seen.client_id;
    const execution = this.data.executions.get(clientKey(c, seen.id));
    if (execution?.status !== EXECUTION_STATUS.executing || execution.updated_at !== seen.updated_at) return false;
    const claim = execution.claim;
    this.data.changeExecution(execution, (e) => {
      change(e);
      delete e.claim;
      delete e.outcome_unknown;
    });
    if (claim) {
      this.giveBack(execution, claim, { waitAgain: true });
      // The next claim writes its own queued log: the history keeps one.
      this.data.sentEmailLogs.get(sentEmailKey(c, claimedEmailIdOf(seen)))?.delete(`${claim.log_at}#${claim.log_id}`);
    }
    return true;
  }

  /** The execution still executing and its contact: the conditions of the record transactions. */
  private executingWithContact(r: Reservation) {
    const c = r.execution.client_id;
    const execution = this.data.executions.get(clientKey(c, r.execution.id));
    const contact = this.aggregates.contacts.contacts.get(clientKey(c, r.execution.contact_id));
    if (execution?.status !== EXECUTION_STATUS.executing)
      throw new MemoryTransactionCancelled(`execution ${r.execution.id} is not executing`);
    if (!contact) throw new MemoryTransactionCancelled(`contact ${r.execution.contact_id} does not exist`);
    return { execution, contact };
  }

  /** The sent-email record to update (an unconditioned DynamoDB update creates the item when it is missing). */
  private emailOf(r: Reservation) {
    const k = sentEmailKey(r.execution.client_id, r.sentEmail.id);
    let email = this.data.sentEmails.get(k);
    if (!email) {
      email = {} as NonNullable<typeof email>;
      this.data.sentEmails.set(k, email);
    }
    return email;
  }

  private putLog(clientId: number, sentEmailId: string, log: Reservation['log']): void {
    const k = sentEmailKey(clientId, sentEmailId);
    const logs = this.data.sentEmailLogs.get(k) ?? new Map();
    logs.set(`${log.created_at}#${log.id}`, stored(log));
    this.data.sentEmailLogs.set(k, logs);
  }

  private quotaOf(r: Reservation): { counter: MemoryQuotaCounter; limits: { day: number; month: number } } {
    const { shard, dayShare, monthShare } = quotaShardFor(r);
    return {
      counter: this.counter(r.execution.client_id, r.quota.month, shard),
      limits: { day: dayShare, month: monthShare },
    };
  }

  private counter(clientId: number, month: string, shard: number): MemoryQuotaCounter {
    const k = `${clientId}\u0000${month}\u0000${shard}`;
    const counter = this.data.quota.get(k) ?? {};
    this.data.quota.set(k, counter);
    return counter;
  }

  /** `ADD sent n, dNN n` on a quota counter, the month's total mirrored for MemorySettingsStore. */
  private raise(
    clientId: number,
    claim: Pick<ExecutionClaim, 'quota_month' | 'quota_day' | 'quota_shard'>,
    n: number,
  ): void {
    const counter = this.counter(clientId, claim.quota_month, claim.quota_shard);
    const day = dayAttribute(claim.quota_day);
    counter['sent'] = (counter['sent'] ?? 0) + n;
    counter[day] = (counter[day] ?? 0) + n;
    const prefix = `${clientId}\u0000${claim.quota_month}\u0000`;
    const month = [...this.data.quota]
      .filter(([k]) => k.startsWith(prefix))
      .reduce((sum, [, v]) => sum + (v['sent'] ?? 0), 0);
    this.aggregates.settings.monthlySent.set(`${clientId}:${claim.quota_month}`, month);
  }

  private raiseQuota(r: Reservation, n: number): void {
    this.raise(r.execution.client_id, claimOf(r), n);
  }

  /** The counters a claim raised, lowered again (nothing was sent); a send to be retried waits for a slot again. */
  private giveBack(execution: ExecutionRecord, claim: ExecutionClaim, options: { waitAgain?: boolean } = {}): void {
    this.raise(execution.client_id, claim, -1);
    if (claim.cap) {
      const cap = this.data.dayCap(execution.client_id, execution.contact_id, execution.cap_day);
      cap.sent = (cap.sent ?? 0) - 1;
      if (options.waitAgain) cap.pending.set(execution.id, execution.priority_score);
    }
  }
}

/** What ends with a claim (DynamoDB: its attributes and its stuck-execution index entry). */
export function endClaim(execution: ExecutionRecord): void {
  delete execution.claim;
  delete execution.outcome_unknown;
  delete execution.retry_pending;
}
