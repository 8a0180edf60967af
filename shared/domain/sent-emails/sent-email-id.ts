import { createHash } from 'node:crypto';
import type { ExecutionRecord } from '../executions/execution-record.js';

/** The sent e-mail's id: a UUID derived from the execution, so a second attempt at one execution finds the first. */
export function sentEmailIdOf(execution: Pick<ExecutionRecord, 'client_id' | 'id'>): string {
  const h = createHash('sha256').update(`sent-email:${execution.client_id}:${execution.id}`).digest('hex');
  // RFC 9562 version 8 (custom), variant 10.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
