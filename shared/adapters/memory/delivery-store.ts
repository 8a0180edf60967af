import type { ClaimOutcome, DeliveryStore, Reservation, SendContext } from '../../domain/executions/delivery-store.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
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
    private readonly aggregates: MemoryAggregates,
    readonly data: MemoryEngineData = new MemoryEngineData(),
  ) {}

  async load(execution: ExecutionRecord): Promise<SendContext> {
    const c = execution.client_id;
    const contact = this.aggregates.contacts.contacts.get(clientKey(c, execution.contact_id));
    const settings = this.aggregates.settings.settings.get(c);
    const client = this.aggregates.clients.clients.get(c);
    const customization = this.aggregates.workflowData.customizations.get(recordKey(c, execution.workflow_id));
    const template = isSystemTemplateId(execution.template_id)
      ? undefined
      : this.aggregates.workflowData.templates.get(recordKey(c, execution.template_id));
    const cap = this.data.peekDayCap(c, execution.contact_id, execution.cap_day);
    return {
      contact: contact && copy(contact),
      settings: settings && copy(settings),
      client: client && copy(client),
      customization: customization && copy(customization),
      template: template && copy(template),
      cap: { sent: cap?.sent ?? 0, pending: Object.fromEntries([...(cap?.pending ?? [])].map(([id, p]) => [String(id), p])) },
    };
  }

  async claim(r: Reservation): Promise<ClaimOutcome> {
    const c = r.execution.client_id;
    const execution = this.data.executions.get(clientKey(c, r.execution.id));
    // The port's gate: 1 → 2, or 2 only while retry_pending (a duplicate run of a retry must not claim it again).
    const claimable =
      execution?.status === EXECUTION_STATUS.queued || (execution?.status === EXECUTION_STATUS.executing && execution.retry_pending === true);
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
    const cap = r.contactCap ? this.data.dayCap(c, r.execution.contact_id, r.execution.cap_day) : undefined;
    if (cap && !below(cap.sent, r.contactCap!.limit)) return 'contact_cap';
    const email = this.data.sentEmails.get(sentEmailKey(c, r.sentEmail.id));
    // A retry of a send that failed transiently finds its own record, still queued.
    if (email && email.status !== SENT_STATUS.queued) return 'taken';

    Object.assign(execution, { status: EXECUTION_STATUS.executing, updated_at: r.at });
    delete execution.retry_pending;
    this.raiseQuota(r, 1);
    if (cap) {
      cap.sent = (cap.sent ?? 0) + 1;
      cap.pending.delete(r.execution.id);
    }
    this.data.sentEmails.set(sentEmailKey(c, r.sentEmail.id), stored(r.sentEmail));
    this.putLog(c, r.sentEmail.id, r.log);
    return 'claimed';
  }

  async recordSent(r: Reservation, providerMessageId: string, at: string, logId: string): Promise<void> {
    const c = r.execution.client_id;
    const { execution, contact } = this.executingWithContact(r);
    const email = this.emailOf(r);
    Object.assign(email, { provider_message_id: providerMessageId, status: SENT_STATUS.sent, status_updated_at: at });
    this.putLog(c, r.sentEmail.id, { id: logId, created_at: at, status: SENT_STATUS.sent, provider_message_id: providerMessageId });
    this.data.providerMessages.set(providerMessageId, { client_id: c, sent_email_id: r.sentEmail.id, contact_id: r.execution.contact_id, created_at: at });
    Object.assign(execution, { status: EXECUTION_STATUS.completed, processed_at: at, updated_at: at, sent_email_id: r.sentEmail.id });
    contact.last_workflow_at = at;
    contact.total_emails_sent = (contact.total_emails_sent ?? 0) + 1;
    contact.active_workflow_count = (contact.active_workflow_count ?? 0) - 1;
  }

  async recordRejected(r: Reservation, reason: string, at: string, logId: string): Promise<void> {
    const c = r.execution.client_id;
    const { execution, contact } = this.executingWithContact(r);
    const email = this.emailOf(r);
    Object.assign(email, { status: SENT_STATUS.failed, status_updated_at: at });
    this.putLog(c, r.sentEmail.id, { id: logId, created_at: at, status: SENT_STATUS.failed, detail: reason });
    Object.assign(execution, { status: EXECUTION_STATUS.failed, processed_at: at, updated_at: at, reason, sent_email_id: r.sentEmail.id });
    this.giveBack(r);
    contact.active_workflow_count = (contact.active_workflow_count ?? 0) - 1;
  }

  async markRetry(r: Reservation, reason: string, at: string): Promise<void> {
    const execution = this.data.executions.get(clientKey(r.execution.client_id, r.execution.id));
    if (execution?.status !== EXECUTION_STATUS.executing) throw new MemoryTransactionCancelled(`execution ${r.execution.id} is not executing`);
    Object.assign(execution, { retry_pending: true, reason, updated_at: at, attempt: (execution.attempt ?? 0) + 1 });
    this.giveBack(r, { waitAgain: true });
    // The retry's claim writes its own queued log: the history keeps one.
    this.data.sentEmailLogs.get(sentEmailKey(r.execution.client_id, r.sentEmail.id))?.delete(`${r.log.created_at}#${r.log.id}`);
  }

  /** The execution still executing and its contact: the conditions of the record transactions. */
  private executingWithContact(r: Reservation) {
    const c = r.execution.client_id;
    const execution = this.data.executions.get(clientKey(c, r.execution.id));
    const contact = this.aggregates.contacts.contacts.get(clientKey(c, r.execution.contact_id));
    if (execution?.status !== EXECUTION_STATUS.executing) throw new MemoryTransactionCancelled(`execution ${r.execution.id} is not executing`);
    if (!contact) throw new MemoryTransactionCancelled(`contact ${r.execution.contact_id} does not exist`);
    return { execution, contact };
  }

  /** The sent-email record to update (an unconditioned DynamoDB update creates the item when it is missing). */
  private emailOf(r: Reservation) {
    const k = sentEmailKey(r.execution.client_id, r.sentEmail.id);
    let email = this.data.sentEmails.get(k);
    if (!email) this.data.sentEmails.set(k, (email = {} as NonNullable<typeof email>));
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
    const k = `${r.execution.client_id}\u0000${r.quota.month}\u0000${shard}`;
    const counter = this.data.quota.get(k) ?? {};
    this.data.quota.set(k, counter);
    return { counter, limits: { day: dayShare, month: monthShare } };
  }

  /** `ADD sent n, dNN n` on the reservation's quota counter, the month's total mirrored for MemorySettingsStore. */
  private raiseQuota(r: Reservation, n: number): void {
    const { counter } = this.quotaOf(r);
    const day = dayAttribute(r.quota.day);
    counter['sent'] = (counter['sent'] ?? 0) + n;
    counter[day] = (counter[day] ?? 0) + n;
    const prefix = `${r.execution.client_id}\u0000${r.quota.month}\u0000`;
    const month = [...this.data.quota].filter(([k]) => k.startsWith(prefix)).reduce((sum, [, v]) => sum + (v['sent'] ?? 0), 0);
    this.aggregates.settings.monthlySent.set(`${r.execution.client_id}:${r.quota.month}`, month);
  }

  /** The counters a claim raised, lowered again (nothing was sent); a send to be retried waits for a slot again. */
  private giveBack(r: Reservation, options: { waitAgain?: boolean } = {}): void {
    this.raiseQuota(r, -1);
    if (r.contactCap) {
      const cap = this.data.dayCap(r.execution.client_id, r.execution.contact_id, r.execution.cap_day);
      cap.sent = (cap.sent ?? 0) - 1;
      if (options.waitAgain) cap.pending.set(r.execution.id, r.execution.priority_score);
    }
  }
}
