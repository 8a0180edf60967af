import { keys } from './keys.js';

export interface ContactFiguresChange {
  /** Executions started (+) or ended (−): `active_workflow_count`. */
  activeWorkflows: number;
  /** E-mails sent: `total_emails_sent`. */
  emailsSent?: number;
  /** A send: `last_workflow_at`. */
  lastWorkflowAt?: string;
}

/**
 * The transaction action that moves a contact's engine figures. Conditioned on the contact existing: an Update on
 * a missing key would create a bare item, so an erased contact cancels the transaction instead.
 */
export function contactFiguresUpdate(tableName: string, clientId: number, contactId: number, change: ContactFiguresChange) {
  const values: Record<string, unknown> = { ':active': change.activeWorkflows };
  const adds = ['active_workflow_count :active'];
  if (change.emailsSent) (adds.push('total_emails_sent :sent'), (values[':sent'] = change.emailsSent));
  let expression = `ADD ${adds.join(', ')}`;
  if (change.lastWorkflowAt) ((expression = `SET last_workflow_at = :at ${expression}`), (values[':at'] = change.lastWorkflowAt));
  return {
    Update: {
      TableName: tableName,
      Key: keys.contact(clientId, contactId),
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    },
  };
}
