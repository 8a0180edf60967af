import type { SentEmailLogRecord, SentEmailRecord } from './sent-email-record.js';

export interface SentEmailStore {
  /** The e-mail and its whole log history in one Query (they share a partition key). */
  /** The e-mail without its logs (one GetItem). */
  get(clientId: number, sentEmailId: string): Promise<SentEmailRecord | undefined>;
  /** Appends one log item (its id and time in the key: appending twice the same log is one item). */
  addLog(clientId: number, sentEmailId: string, log: SentEmailLogRecord): Promise<void>;
  getWithLogs(
    clientId: number,
    sentEmailId: string,
  ): Promise<{ email: SentEmailRecord; logs: SentEmailLogRecord[] } | undefined>;
}
