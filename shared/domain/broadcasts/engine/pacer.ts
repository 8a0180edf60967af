import { randomUUID } from 'node:crypto';
import { BROADCAST_RATE_BY_TIER } from '../../../public/broadcast-rules.js';
import type { BroadcastMessage } from '../../../platform.js';
import { dispatchBroadcast } from '../../engine/dispatch.js';
import type { PaceStore } from '../pace-store.js';
import type { DueEntry, EngineBroadcast, PacerState, PassContext } from '../recipient-store.js';
import { horizonMsOf, passSizeOf, reserve, type Rates } from './reserve.js';
import { decideAtOf } from './decide-winner.js';
import { allPartitionsOf, releasedPartitionsOf } from './due-partitions.js';
import type { EngineDeps } from './start.js';

export interface PacerDeps extends EngineDeps {
  pace: PaceStore;
  /** Every client's broadcasts together, e-mails a second: SES's account rate × the broadcast share. */
  accountRate: number;
}

/** Entries a partition is read for beyond its share of the pass (one partition may hold more of the earliest). */
const PARTITION_SLACK = 5;
/** Released this long ago and still waiting: its message was lost (a crash between the release and the send). */
export const STRAGGLER_AFTER_MS = 5 * 60_000;
/** A pacer whose holdouts wait for their A/B test's winner looks again this long after the winner's time. */
const AWAIT_WINNER_RECHECK_MS = 60_000;
/** A pacer with nothing due soon but recipients still in flight looks again after this long (at least). */
const IN_FLIGHT_RECHECK_MS = 2_000;

/** Starts (or restarts) a broadcast's pacer: a pace message naming no chain takes the chain over, from the start. */
export async function startPacing(deps: EngineDeps, head: EngineBroadcast): Promise<void> {
  await deps.queue.send('broadcast', { client_id: head.client_id, broadcast_id: head.id, kind: 'pace' });
}

/** The client's broadcast rate (its plan's, lowered by its settings) and the account's share. */
export function ratesOf(context: PassContext, accountRate: number): Rates {
  const byPlan =
    BROADCAST_RATE_BY_TIER[context.plan as keyof typeof BROADCAST_RATE_BY_TIER] ?? BROADCAST_RATE_BY_TIER.free;
  const own = (context.settings as { broadcast_send_rate?: unknown } | undefined)?.broadcast_send_rate;
  const client = typeof own === 'number' && own > 0 ? Math.min(own, byPlan) : byPlan;
  return { client, account: accountRate };
}

/**
 * One pass of a broadcast's pacer (one chain a broadcast: a message names the `seq` it expects, each pass raises it;
 * a message naming none — resume, the sweep, a restart after a crash — takes the chain over and reads every due
 * partition from its start, so nothing released and lost stays behind).
 * 1. One read: head, pacer, plan, settings. Not sending (paused, cancelled, sent) → the chain stops.
 * 2. Per due partition one Query after its cursor (one wave): the earliest waiting recipients; those due within the
 *    horizon T are eligible, the k = rate × T earliest taken. Every 5 minutes, entries at or before the cursors of 5
 *    minutes ago (released then, never claimed: a lost message) are taken again first.
 * 3. k sends reserved on the client's and the account's pace clocks (reserve.ts); a reservation beyond the horizon
 *    takes nothing and the pass comes back for it.
 * 4. The pacer's item written (cursors, seq + 1) conditioned on the seq read — a second chain loses here and stops,
 *    its reservation unused — then the recipients' messages, spread over the reserved span (each delay also at least
 *    its own due time, so the executor never sends one back around the pace), and the next pass's message, before
 *    the span ends so the clocks stay busy.
 * 5. Nothing waiting at all once the snapshot is done → the broadcast is sent.
 * Requests a pass: 1 BatchGetItem, S Queries, 2–4 UpdateItem (clocks), 1 PutItem, ⌈k/10⌉ + 1 SQS.
 */
export async function pacePass(deps: PacerDeps, message: BroadcastMessage): Promise<string> {
  const { client_id: clientId, broadcast_id: broadcastId } = message;
  const context = await deps.recipients.passContext(clientId, broadcastId);
  const head = context.head;
  if (!head || head.status !== 'sending') return 'stopped';
  const pacer = context.pacer;
  if (message.gen !== undefined && message.gen !== (pacer?.seq ?? 0)) return 'stale';
  const restart = message.gen === undefined || pacer === undefined;
  const now = deps.clock.now();
  const nowMs = now.getTime();
  const rates = ratesOf(context, deps.accountRate);
  const horizonMs = horizonMsOf(rates.client);
  const k = passSizeOf(rates.client);
  // An A/B test's holdouts are released only once its winner is chosen (their partitions follow the audience's).
  const partitions = releasedPartitionsOf(head);
  const cursors: Record<string, string> = restart ? {} : { ...pacer.cursors };

  const check =
    !restart && pacer.checked_at !== undefined && nowMs - Date.parse(pacer.checked_at) >= STRAGGLER_AFTER_MS;
  const [stragglers, ahead] = await Promise.all([
    check ? readStragglers(deps, head, pacer.checked ?? {}, partitions, k) : Promise.resolve([]),
    Promise.all(
      Array.from({ length: partitions }, (_, p) =>
        deps.recipients.dueAfter(head, p, cursors[p], Math.ceil(k / partitions) + PARTITION_SLACK),
      ),
    ),
  ]);
  const horizonIso = new Date(nowMs + horizonMs).toISOString();
  const eligible = ahead
    .flat()
    .filter((e) => e.scheduled_for <= horizonIso)
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  const taken = [...stragglers, ...eligible].slice(0, k);
  const checked = restart
    ? { checked: { ...cursors }, checked_at: now.toISOString() }
    : check || pacer.checked_at === undefined
      ? { checked: { ...pacer.cursors }, checked_at: now.toISOString() }
      : { checked: pacer.checked ?? {}, checked_at: pacer.checked_at };
  const seq = (pacer?.seq ?? 0) + 1;
  const base: PacerState = {
    seq,
    token: randomUUID(),
    cursors,
    ...checked,
    beat_at: now.toISOString(),
    next_at: now.toISOString(),
    ...(pacer?.released_at ? { released_at: pacer.released_at } : {}),
  };

  if (taken.length === 0) return idle(deps, head, pacer, base, ahead, horizonMs, now);

  const reservation = await reserve(deps.pace, clientId, taken.length, rates, nowMs, horizonMs);
  if (reservation.kind === 'later') {
    const next = new Date(Math.max(reservation.at, nowMs + 1000));
    return saveAndContinue(deps, head, pacer, { ...base, next_at: next.toISOString() }, next, now, 'waiting');
  }
  // Stragglers lie behind their cursor already; the others move it to the last one taken of their partition.
  for (const entry of taken) {
    const current = cursors[entry.partition];
    if (current === undefined || entry.key > current) cursors[entry.partition] = entry.key;
  }
  const spanEnd = reservation.start + reservation.spanMs;
  // Before the span ends, so the next block starts where this one stops.
  const next = new Date(Math.max(nowMs + 1000, spanEnd - horizonMs / 2));
  const state = { ...base, cursors, released_at: now.toISOString(), next_at: next.toISOString() };
  if (!(await deps.recipients.savePacer(head, pacer?.seq, state))) return 'lost_race';
  await deps.queue.sendBatch(
    'workflow',
    taken.map((entry, i) => {
      const slot = reservation.start + Math.floor((i * reservation.spanMs) / taken.length);
      const at = Math.max(slot, Date.parse(entry.scheduled_for));
      return {
        message: { client_id: clientId, execution_id: entry.execution_id },
        options: { delaySeconds: Math.max(0, Math.ceil((at - nowMs) / 1000)) },
      };
    }),
  );
  await dispatchBroadcast(deps, { client_id: clientId, broadcast_id: broadcastId, kind: 'pace', gen: seq }, next, now);
  return 'released';
}

/**
 * Nothing to release now. Recipients due later: come back a horizon before the earliest. None after the cursors:
 * when nothing waits in any partition at all (every one released has been claimed) and the snapshot is done, the
 * broadcast is sent; otherwise look again shortly (the stragglers' check takes care of a lost message).
 */
async function idle(
  deps: PacerDeps,
  head: EngineBroadcast,
  pacer: PacerState | undefined,
  base: PacerState,
  ahead: DueEntry[][],
  horizonMs: number,
  now: Date,
): Promise<string> {
  const nowMs = now.getTime();
  const later = ahead.flat().sort((a, b) => (a.key < b.key ? -1 : 1))[0];
  if (later) {
    const next = new Date(Math.max(nowMs + 1000, Date.parse(later.scheduled_for) - horizonMs));
    return saveAndContinue(deps, head, pacer, { ...base, next_at: next.toISOString() }, next, now, 'waiting');
  }
  const snapshotDone = head.snapshot !== undefined && head.snapshot.done.length >= head.snapshot.sources;
  const partitions = releasedPartitionsOf(head);
  const anyLeft = snapshotDone
    ? (
        await Promise.all(Array.from({ length: partitions }, (_, p) => deps.recipients.dueAfter(head, p, undefined, 1)))
      ).some((entries) => entries.length > 0)
    : true;
  const all = allPartitionsOf(head);
  const heldOut =
    !anyLeft && all > partitions
      ? (
          await Promise.all(
            Array.from({ length: all - partitions }, (_, p) =>
              deps.recipients.dueAfter(head, partitions + p, undefined, 1),
            ),
          )
        ).some((entries) => entries.length > 0)
      : false;
  if (heldOut) {
    // The test share is out; the holdouts wait for the winner, whose decide step starts the pacer again. Until then
    // the pacer looks once a minute after its time (a decide lost with its worker is the sweep's to send again).
    const decideAt = decideAtOf(head, deps.journeyTime).getTime();
    const next = new Date(Math.max(nowMs, decideAt) + AWAIT_WINNER_RECHECK_MS);
    return saveAndContinue(deps, head, pacer, { ...base, next_at: next.toISOString() }, next, now, 'awaiting_winner');
  }
  if (!anyLeft) {
    if (!(await deps.recipients.savePacer(head, pacer?.seq, base))) return 'lost_race';
    await deps.recipients.finishSending(head, now.toISOString());
    return 'sent';
  }
  const next = new Date(nowMs + Math.max(horizonMs, IN_FLIGHT_RECHECK_MS));
  return saveAndContinue(deps, head, pacer, { ...base, next_at: next.toISOString() }, next, now, 'in_flight');
}

async function saveAndContinue(
  deps: PacerDeps,
  head: EngineBroadcast,
  pacer: PacerState | undefined,
  state: PacerState,
  next: Date,
  now: Date,
  outcome: string,
): Promise<string> {
  if (!(await deps.recipients.savePacer(head, pacer?.seq, state))) return 'lost_race';
  await dispatchBroadcast(
    deps,
    { client_id: head.client_id, broadcast_id: head.id, kind: 'pace', gen: state.seq },
    next,
    now,
  );
  return outcome;
}

/** Entries still waiting at or before the cursors of the last check (released at least 5 minutes ago). */
async function readStragglers(
  deps: PacerDeps,
  head: EngineBroadcast,
  checked: Record<string, string>,
  partitions: number,
  k: number,
): Promise<DueEntry[]> {
  const found = await Promise.all(
    Array.from({ length: partitions }, (_, p) =>
      checked[p] === undefined ? Promise.resolve([]) : deps.recipients.dueUpTo(head, p, checked[p]!, k),
    ),
  );
  return found.flat().sort((a, b) => (a.key < b.key ? -1 : 1));
}
