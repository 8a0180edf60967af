import { DynamoSentEmailStore } from '../../adapters/dynamo/sent-email-store.js';
import { provide } from '../container.js';

/** Sent e-mails with their log history. */
export const sentEmailStore = provide('sentEmails', (c) => new DynamoSentEmailStore(c.dynamo().db, c.dynamo().tableName));
