import type { SentEmailLogRecord, SentEmailRecord } from '../../domain/sent-emails/sent-email-record.js';
import type { SentEmailStore } from '../../domain/sent-emails/sent-email-store.js';
import { copy, MemoryEngineData, sentEmailKey, stored } from './engine-data.js';

/** SentEmailStore in memory: the e-mails and logs the MemoryDeliveryStore of the same `data` writes. */
export class MemorySentEmailStore implements SentEmailStore {
  constructor(readonly data: MemoryEngineData = new MemoryEngineData()) {}

  async get(clientId: number, sentEmailId: string): Promise<SentEmailRecord | undefined> {
    const found = this.data.sentEmails.get(sentEmailKey(clientId, sentEmailId));
    return found && copy(found);
  }

  async addLog(clientId: number, sentEmailId: string, log: SentEmailLogRecord): Promise<void> {
    const k = sentEmailKey(clientId, sentEmailId);
    const logs = this.data.sentEmailLogs.get(k) ?? new Map<string, SentEmailLogRecord>();
    // Keyed by time and id, as the DynamoDB sort key `LOG#<ts>#<id>`: the same log twice is one entry.
    logs.set(`${log.created_at}#${log.id}`, stored(log));
    this.data.sentEmailLogs.set(k, logs);
  }

  async getWithLogs(clientId: number, sentEmailId: string) {
    const k = sentEmailKey(clientId, sentEmailId);
    const email = this.data.sentEmails.get(k);
    if (!email) return undefined;
    const logs = [...(this.data.sentEmailLogs.get(k) ?? new Map<string, SentEmailLogRecord>())]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, log]) => copy(log));
    return { email: copy(email), logs };
  }
}
