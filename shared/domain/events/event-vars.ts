import type { ExecutionEventVars } from '../executions/execution-record.js';
import type { RunRecord } from '../runs/run-record.js';
import type { EventRecord } from './event-record.js';

/** Metadata (and a run's payload) is copied only while small: it is written with every execution and run write. */
export const MAX_COPIED_EVENT_BYTES = 4096;

const small = (value: Record<string, unknown> | undefined) =>
  value && Buffer.byteLength(JSON.stringify(value)) <= MAX_COPIED_EVENT_BYTES ? value : undefined;

const defined = <T>(fields: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;

/** The event as templates see it (`it.event.*`). */
export function eventVarsOf(event: EventRecord): ExecutionEventVars {
  const { type, ts, action, feature, plan, amount, upgrade } = event;
  return defined({ type, ts, action, feature, plan, amount, upgrade, metadata: small(event.metadata) });
}

/** The trigger event as a run keeps it: the template variables and the body's payload, each while ≤ 4 KB. */
export function runEventOf(event: EventRecord): RunRecord['event'] {
  return defined({ ...eventVarsOf(event), payload: small(event.payload) });
}

/**
 * The whole event as journey conditions and keys read it when it arrives (nothing dropped for size: the decision is
 * taken on what the client sent, and only what is kept is bounded).
 */
export function eventForConditions(event: EventRecord): RunRecord['event'] {
  const { type, ts, action, feature, plan, amount, upgrade, metadata, payload } = event;
  return defined({ type, ts, action, feature, plan, amount, upgrade, metadata, payload });
}
