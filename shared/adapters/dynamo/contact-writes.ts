import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type {
  ContactWrite,
  ContactWriteOptions,
  ContactWriteOutcome,
  ContactWrites,
} from '../../domain/contacts/contact-store.js';
import type { BackoffOptions } from './backoff.js';
import { writeContacts } from './contact-bulk-write.js';

/** The contact writes of imports and updates (contact-bulk-write.ts): each write atomic with its locks. */
export class DynamoContactWrites implements ContactWrites {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Backoff for throttling and unprocessed writes (tests shorten it). */
    private readonly backoff?: BackoffOptions,
  ) {}

  writeMany(writes: readonly ContactWrite[], options: ContactWriteOptions = {}): Promise<ContactWriteOutcome[]> {
    return writeContacts(this.db, this.tableName, writes, { isolated: options.isolated, backoff: this.backoff });
  }
}
