import { DynamoSentEmailStore } from '../../adapters/dynamo/sent-email-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** Sent e-mails with their log history. */
export const sentEmailStore = provide(
  'sentEmails',
  (c) => new DynamoSentEmailStore(tableOf(c).db, tableOf(c).tableName),
);
