import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SesStatusMessage } from '../../shared/platform.js';

/**
 * The local SES's durable side. On AWS, once SES accepted an e-mail its status notifications are certain to
 * reach the status queue (SES → SNS → SQS, all durable). Locally the SES emulator and the queues live in this process,
 * so a kill right after the emulator accepted a mail would lose every trace of it — and the executor, finding the claim
 * with no evidence, would send it again. Each notification the local SES publishes is therefore appended to
 * `<DATA_DIR>/ses-journal.jsonl` before the send returns (a write() survives the process being killed; only a crash
 * of the machine could lose it, which `DATA_DIR` does not promise to survive either), and replayed into the status
 * queue at the next start. Replaying is harmless: the status pipeline keeps one log per notification.
 *
 * The one window left is between the emulator's answer and this append (microseconds, in process); SES on AWS has none.
 */
export interface JournalEntry {
  /** When the local SES published it (ms since the epoch). */
  at: number;
  delaySeconds: number;
  message: SesStatusMessage;
}

/** Entries younger than this are replayed at start and kept; older ones are dropped by the compaction at start. */
export const JOURNAL_REPLAY_WINDOW_MS = 15 * 60 * 1000;

export class SesJournal {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'ses-journal.jsonl');
  }

  append(message: SesStatusMessage, delaySeconds: number, at = Date.now()): void {
    appendFileSync(this.file, `${JSON.stringify({ at, delaySeconds, message } satisfies JournalEntry)}\n`);
  }

  /** Every entry, oldest first; a line cut short by a kill mid-write is skipped. */
  entries(): JournalEntry[] {
    if (!existsSync(this.file)) return [];
    return readFileSync(this.file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as JournalEntry];
        } catch {
          return [];
        }
      });
  }

  /** Keeps the entries published at or after `since` (atomically: a kill during compaction keeps the old file). */
  compact(since: number): JournalEntry[] {
    const kept = this.entries().filter((entry) => entry.at >= since);
    const next = `${this.file}.next`;
    writeFileSync(next, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    renameSync(next, this.file);
    return kept;
  }
}
