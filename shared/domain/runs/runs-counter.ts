import { JOURNEY_LIMITS } from '../../public/journey-rules.js';
import type { ContactEventUpdate } from '../events/processing-store.js';
import { RUNS_IN_FLIGHT_ATTRIBUTE } from './run-record.js';

/** The contact item's run counter (null: absent, the contact has started no run since the counter exists). */
export function runsCounterOf(contact: object): number | null {
  const value = (contact as Record<string, unknown>)[RUNS_IN_FLIGHT_ATTRIBUTE];
  return typeof value === 'number' ? value : null;
}

/**
 * The contact's runs in flight as the limit counts them: its markers, or its counter when that is higher (a commit
 * refused by the counter's condition reads the contact again and sees the runs another commit started meanwhile).
 */
export const runsInFlightOf = (contact: object, markers: number): number =>
  Math.max(markers, runsCounterOf(contact) ?? 0);

/**
 * How a processing commit moves the contact's run counter (`runs_n`), which counts its `run_<id>` markers:
 * - `create`: the contact has none yet (its runs, if any, started before the counter existed): set it to its markers
 *   as read plus the change, only while it is still absent;
 * - `add`: add the runs started less the runs exited; when that raises it, only while the counter is at most `max`,
 *   so the runs in flight stay within JOURNEY_LIMITS.runsPerContact whatever other commits do meanwhile.
 * None when the commit starts and ends no run.
 */
export type RunsCounterChange = { kind: 'create'; value: number } | { kind: 'add'; value: number; max?: number };

export function runsCounterChangeOf(change: ContactEventUpdate): RunsCounterChange | undefined {
  const started = change.runsStarted?.length ?? 0;
  const ended = change.runsRemoved?.length ?? 0;
  if ((started === 0 && ended === 0) || !change.runsRead) return undefined;
  const delta = started - ended;
  if (change.runsRead.counter === null) return { kind: 'create', value: change.runsRead.markers + delta };
  return { kind: 'add', value: delta, ...(delta > 0 ? { max: JOURNEY_LIMITS.runsPerContact - delta } : {}) };
}

/** Whether a counter change holds on the contact's counter as it stands (null: absent): the update's condition. */
export function runsCounterHolds(change: RunsCounterChange, counter: number | null): boolean {
  if (change.kind === 'create') return counter === null;
  return counter !== null && (change.max === undefined || counter <= change.max);
}

/** The counter after the change. */
export const runsCounterAfter = (change: RunsCounterChange, counter: number | null): number =>
  change.kind === 'create' ? change.value : (counter ?? 0) + change.value;
