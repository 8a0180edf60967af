import {
  lastSentAttribute,
  lastSentPlaceAttribute,
  type SendPlace,
  openExecutionAttribute,
  openExecutionValue,
  type OpenExecution,
} from '../../domain/workflows/goals.js';
import { keys } from './keys.js';

export interface ContactFiguresChange {
  /** Executions started (+) or ended (−): `active_workflow_count`. */
  activeWorkflows: number;
  /** E-mails sent: `total_emails_sent`. */
  emailsSent?: number;
  /** A send: `last_workflow_at`. */
  lastWorkflowAt?: string;
  /** An execution that leaves the queue (claimed and done, or ended): no longer listed for exit events. */
  closedExecutionId?: number;
  /** An execution queued (a retry): listed for exit events. */
  opened?: OpenExecution;
  /** A send of this workflow (`sent_w<id>` = `lastWorkflowAt`): the start of its conversion window. */
  sentWorkflowId?: number;
  /** A journey's send: its step and arms (`sentp_w<id>`), kept with `sent_w<id>` for the conversion's counters. */
  sentPlace?: SendPlace;
}

/**
 * The transaction action that moves a contact's engine figures. Conditioned on the contact existing: an Update on
 * a missing key would create a bare item, so an erased contact cancels the transaction instead.
 */
export function contactFiguresUpdate(
  tableName: string,
  clientId: number,
  contactId: number,
  change: ContactFiguresChange,
) {
  const values: Record<string, unknown> = { ':active': change.activeWorkflows };
  const adds = ['active_workflow_count :active'];
  if (change.emailsSent) adds.push('total_emails_sent :sent'), (values[':sent'] = change.emailsSent);
  const sets: string[] = [];
  const names: Record<string, string> = {};
  if (change.lastWorkflowAt) sets.push('last_workflow_at = :at'), (values[':at'] = change.lastWorkflowAt);
  if (change.lastWorkflowAt && change.sentWorkflowId !== undefined) {
    names['#sent'] = lastSentAttribute(change.sentWorkflowId);
    sets.push('#sent = :at');
    // Every send of a journey writes it, so it always names the send `sent_w` dates.
    if (change.sentPlace?.step_id !== undefined) {
      names['#sentp'] = lastSentPlaceAttribute(change.sentWorkflowId);
      values[':sentp'] = change.sentPlace;
      sets.push('#sentp = :sentp');
    }
  }
  if (change.opened) {
    names['#open'] = openExecutionAttribute(change.opened.execution_id);
    values[':open'] = openExecutionValue(change.opened);
    sets.push('#open = :open');
  }
  let expression = `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}ADD ${adds.join(', ')}`;
  if (change.closedExecutionId !== undefined) {
    names['#closed'] = openExecutionAttribute(change.closedExecutionId);
    expression += ' REMOVE #closed';
  }
  return {
    Update: {
      TableName: tableName,
      Key: keys.contact(clientId, contactId),
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(pk)',
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}
