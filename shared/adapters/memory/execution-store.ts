import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import {
  TOTAL_LOOKAHEAD,
  type ExecutingPage,
  type ExecutionListFilter,
  type ExecutionListPage,
  type ExecutionStore,
  type Finish,
} from '../../domain/executions/execution-store.js';
import { endClaim } from './delivery-store.js';
import { clientKey, copy, MemoryEngineData, stored, type MemoryAggregates } from './engine-data.js';
import { listOpenExecution, unlistOpenExecution } from './contact-goals.js';
import { keys } from '../dynamo/keys.js';

/** The DynamoDB listing spreads a client's executions over this many index keys by id; each is read up to a bound. */
const LISTING_SHARDS = keys.executionShards;
/** The DynamoDB listing sort key (`<created_at>#<id, 16 digits>`): the order and the created_* bounds compare on it. */
const listingKey = (e: ExecutionRecord): string => `${e.created_at}#${e.id.toString().padStart(16, '0')}`;

/**
 * ExecutionStore in memory, with the DynamoDB adapter's contract: `finish` and `defer` only over the status and
 * `updated_at` read; `finish` lowers the contact's active count when the contact still exists; `retry` needs the
 * original failed, the new id free and the contact there, or writes nothing.
 */
export class MemoryExecutionStore implements ExecutionStore {
  constructor(
    private readonly aggregates: Pick<MemoryAggregates, 'contacts'>,
    readonly data: MemoryEngineData = new MemoryEngineData(),
  ) {}

  async get(clientId: number, executionId: number): Promise<ExecutionRecord | undefined> {
    const found = this.data.executions.get(clientKey(clientId, executionId));
    return found && copy(found);
  }

  async finish(execution: ExecutionRecord, finish: Finish): Promise<boolean> {
    const current = this.unchanged(execution);
    if (!current) return false;
    this.data.changeExecution(current, (e) => {
      Object.assign(e, { status: finish.status, updated_at: finish.at, processed_at: finish.at });
      if (finish.reason) e.reason = finish.reason;
      if (finish.goalEventId !== undefined) e.goal_event_id = finish.goalEventId;
      endClaim(e);
    });
    // An erased contact has no figures left to lower: the execution ends alone (and stays on its day's counter).
    const contact = this.aggregates.contacts.contacts.get(clientKey(execution.client_id, execution.contact_id));
    if (contact) {
      contact.active_workflow_count = (contact.active_workflow_count ?? 0) - 1;
      unlistOpenExecution(contact, execution.id);
      // No longer waiting for a slot of the contact's day.
      this.data.peekDayCap(execution.client_id, execution.contact_id, execution.cap_day)?.pending.delete(execution.id);
    }
    return true;
  }

  async defer(execution: ExecutionRecord, scheduledFor: string, reason: string, at: string): Promise<boolean> {
    const current = this.unchanged(execution);
    if (!current) return false;
    this.data.changeExecution(current, (e) =>
      Object.assign(e, { scheduled_for: scheduledFor, reason, updated_at: at, deferrals: (e.deferrals ?? 0) + 1 }),
    );
    return true;
  }

  async listExecutingBefore(before: string, limit: number, cursor?: string): Promise<ExecutingPage> {
    // As the DynamoDB index: queued executions by their due time, executing ones since their last change.
    const since = (e: ExecutionRecord) => (e.status === EXECUTION_STATUS.executing ? e.updated_at : e.scheduled_for);
    const all = [...this.data.executions.values()]
      .filter(
        (e) => (e.status === EXECUTION_STATUS.executing || e.status === EXECUTION_STATUS.queued) && since(e) < before,
      )
      .sort((a, b) => (since(a) < since(b) ? -1 : since(a) > since(b) ? 1 : a.id - b.id));
    const offset = cursor ? Number(cursor) : 0;
    const page = all.slice(offset, offset + limit).map((e) => ({ client_id: e.client_id, execution_id: e.id }));
    return { executions: page, ...(offset + limit < all.length ? { cursor: String(offset + limit) } : {}) };
  }

  /** Newest first; as the DynamoDB listing, each shard counts at most `page × per_page + TOTAL_LOOKAHEAD` matches. */
  async list(clientId: number, filter: ExecutionListFilter): Promise<ExecutionListPage> {
    const wanted = filter.page * filter.perPage + TOTAL_LOOKAHEAD;
    const matches = [...this.data.executions.values()]
      .filter((e) => e.client_id === clientId)
      .filter((e) => filter.workflowId === undefined || e.workflow_id === filter.workflowId)
      .filter((e) => filter.status === undefined || e.status === filter.status)
      .filter((e) => filter.createdFrom === undefined || listingKey(e) >= filter.createdFrom)
      .filter((e) => filter.createdBefore === undefined || listingKey(e) < filter.createdBefore)
      .sort((a, b) => (listingKey(a) < listingKey(b) ? 1 : -1));
    if (filter.after !== undefined) {
      const after = filter.after;
      const older = matches.filter((e) => listingKey(e) < after);
      const shown = older.slice(0, filter.perPage);
      return {
        executions: shown.map(copy),
        total: (filter.page - 1) * filter.perPage + older.length,
        totalExact: true,
        ...(older.length > filter.perPage ? { next: listingKey(shown.at(-1)!) } : {}),
      };
    }
    const shards = Array.from({ length: LISTING_SHARDS }, (_, shard) =>
      matches.filter((e) => e.id % LISTING_SHARDS === shard),
    );
    const seen = new Set(shards.flatMap((shard) => shard.slice(0, wanted)));
    const all = matches.filter((e) => seen.has(e));
    const offset = (filter.page - 1) * filter.perPage;
    const shown = all.slice(offset, offset + filter.perPage);
    return {
      ...(all.length > offset + filter.perPage ? { next: listingKey(shown.at(-1)!) } : {}),
      executions: shown.map(copy),
      total: all.length,
      // A shard holding `wanted` matches or more may hold more than were counted.
      totalExact: shards.every((shard) => shard.length < wanted),
    };
  }

  async retry(original: ExecutionRecord, next: ExecutionRecord, at: string): Promise<boolean> {
    const current = this.data.executions.get(clientKey(original.client_id, original.id));
    const contact = this.aggregates.contacts.contacts.get(clientKey(next.client_id, next.contact_id));
    if (current?.status !== EXECUTION_STATUS.failed) return false;
    if (this.data.executions.has(clientKey(next.client_id, next.id)) || !contact) return false;
    Object.assign(current, { status: EXECUTION_STATUS.retried, updated_at: at });
    this.data.executions.set(clientKey(next.client_id, next.id), stored(next));
    contact.active_workflow_count = (contact.active_workflow_count ?? 0) + 1;
    listOpenExecution(contact, {
      execution_id: next.id,
      workflow_id: next.workflow_id,
      cap_day: next.cap_day,
      critical: next.critical,
    });
    return true;
  }

  /** The stored execution when its status and `updated_at` are still those read. */
  private unchanged(execution: ExecutionRecord): ExecutionRecord | undefined {
    const current = this.data.executions.get(clientKey(execution.client_id, execution.id));
    return current && current.status === execution.status && current.updated_at === execution.updated_at
      ? current
      : undefined;
  }
}
