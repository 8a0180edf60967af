import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import {
  convertedAttribute,
  lastSentAttribute,
  lastSentPlaceAttribute,
  type SendPlace,
  goalMarkAttribute,
  openExecutionAttribute,
  openExecutionValue,
  type GoalMark,
  type OpenExecution,
} from '../../domain/workflows/goals.js';

/**
 * The goal attributes of a memory contact, under the names the DynamoDB item uses, so the domain reads
 * both alike: `open_<execution>` lists a queued execution, `goal_w<workflow>` the workflow's last exit event.
 */
const attributes = (contact: ContactRecord) => contact as unknown as Record<string, unknown>;

export function listOpenExecution(contact: ContactRecord, open: OpenExecution): void {
  attributes(contact)[openExecutionAttribute(open.execution_id)] = openExecutionValue(open);
}

export function unlistOpenExecution(contact: ContactRecord, executionId: number): void {
  delete attributes(contact)[openExecutionAttribute(executionId)];
}

/** A send of the workflow: its conversion window starts (`sent_w<workflow>`). */
export function markSent(contact: ContactRecord, workflowId: number, at: string, place: SendPlace = {}): void {
  attributes(contact)[lastSentAttribute(workflowId)] = at;
  if (place.step_id !== undefined) attributes(contact)[lastSentPlaceAttribute(workflowId)] = { ...place };
}

/** The send converted (`conv_w<workflow>`): counted once. */
export function markConverted(contact: ContactRecord, workflowId: number, sentAt: string): void {
  attributes(contact)[convertedAttribute(workflowId)] = sentAt;
}

export const convertedSendOf = (contact: ContactRecord, workflowId: number): unknown =>
  attributes(contact)[convertedAttribute(workflowId)];

export function setGoalMark(contact: ContactRecord, workflowId: number, mark: GoalMark): void {
  attributes(contact)[goalMarkAttribute(workflowId)] = { ...mark };
}
