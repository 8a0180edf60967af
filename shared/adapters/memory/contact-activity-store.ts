import { compareActivity, newestFirst, type ActivityPosition } from '../../domain/contacts/activity-position.js';
import type { ActivityRecords, ContactActivityStore, HistoryEntry } from '../../domain/contacts/activity-store.js';
import type { SentEmailLogRecord } from '../../domain/sent-emails/sent-email-record.js';
import { clientKey, copy, MemoryEngineData, sentEmailKey, type MemoryAggregates } from './engine-data.js';

/**
 * ContactActivityStore in memory, over the engine's data: the entries DynamoDB's gsi2 holds — events once processed
 * with a contact, executions and sent e-mails — in the timeline's order.
 */
export class MemoryContactActivityStore implements ContactActivityStore {
  constructor(
    readonly data: MemoryEngineData = new MemoryEngineData(),
    /** The journeys' reads (the journey index); none: no journey is named. */
    readonly aggregates: Pick<MemoryAggregates, 'journeys'> = {},
  ) {}

  async journeyNames(clientId: number): Promise<ReadonlyMap<number, string>> {
    const journeys = this.aggregates.journeys?.indexOf(clientId)?.journeys ?? [];
    return new Map(journeys.map((j) => [j.id, j.name]));
  }

  async entries(clientId: number, contactId: number, page: { before?: ActivityPosition; limit: number }) {
    const mine = (r: { client_id: number; contact_id?: number }) =>
      r.client_id === clientId && r.contact_id === contactId;
    const all: HistoryEntry[] = [
      ...[...this.data.events.values()]
        .filter((e) => mine(e) && e.queue_status !== 'queued')
        .map((e): HistoryEntry => ({ kind: 'event', at: e.created_at, id: e.id })),
      ...[...this.data.executions.values()]
        .filter(mine)
        .map((e): HistoryEntry => ({ kind: 'execution', at: e.created_at, id: e.id })),
      ...[...this.data.sentEmails.values()]
        .filter(mine)
        .map((e): HistoryEntry => ({ kind: 'sent_email', at: e.created_at, id: e.id })),
    ];
    const older = all.filter((e) => page.before === undefined || compareActivity(e, page.before) < 0).sort(newestFirst);
    return { entries: older.slice(0, page.limit), more: older.length > page.limit };
  }

  async records(clientId: number, entries: readonly HistoryEntry[]): Promise<ActivityRecords> {
    const records: ActivityRecords = { events: new Map(), executions: new Map(), sentEmails: new Map() };
    for (const entry of entries) {
      if (entry.kind === 'event') {
        const event = this.data.events.get(clientKey(clientId, entry.id as number));
        if (event) records.events.set(event.id, copy(event));
      } else if (entry.kind === 'execution') {
        const execution = this.data.executions.get(clientKey(clientId, entry.id as number));
        if (execution) records.executions.set(execution.id, copy(execution));
      } else {
        const k = sentEmailKey(clientId, entry.id as string);
        const email = this.data.sentEmails.get(k);
        if (!email) continue;
        const logs = [...(this.data.sentEmailLogs.get(k) ?? new Map<string, SentEmailLogRecord>())]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([, log]) => copy(log));
        records.sentEmails.set(email.id, { email: copy(email), logs });
      }
    }
    return records;
  }
}
