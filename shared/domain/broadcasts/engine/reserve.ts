import type { PaceOwner, PaceStore } from '../pace-store.js';

/** The pacer never reserves further ahead than this many seconds' worth, nor less than 2 s or more than 15 s. */
const HORIZON_SENDS = 200;
const HORIZON_MIN_S = 2;
const HORIZON_MAX_S = 15;

/**
 * How far ahead the pacer releases recipients: T = clamp(200 / client rate, 2, 15) seconds. Long enough that a pass
 * carries ~200 recipients (its requests spread thin), short enough that a pause stops the sends within seconds.
 */
export const horizonMsOf = (clientRate: number): number =>
  Math.round(Math.min(HORIZON_MAX_S, Math.max(HORIZON_MIN_S, HORIZON_SENDS / clientRate)) * 1000);

/** Recipients one pass may release: the client's rate over the horizon, at least one. */
export const passSizeOf = (clientRate: number): number =>
  Math.max(1, Math.ceil((clientRate * horizonMsOf(clientRate)) / 1000));

export interface Rates {
  /** The client's broadcast rate, e-mails a second (its plan's, lowered by its settings). */
  client: number;
  /** Every client's broadcasts together: SES's account rate × the broadcast share. */
  account: number;
}

/**
 * A block of `n` sends placed in time: they go out evenly over [start, start + spanMs), one every spanMs / n.
 * `later`: both clocks are reserved past the horizon; nothing was taken, come back at `at`.
 */
export type Reservation = { kind: 'reserved'; start: number; spanMs: number } | { kind: 'later'; at: number };

/**
 * The block's place on the two clocks, from what is known of them: it starts when both budgets are free (never
 * before now); the client's clock moves by the block's span at the slower of the two rates (its sends are spread over
 * that span), the account's by n / account rate (what the block costs the account). Pure: the arithmetic of reserve.
 */
export function placeBlock(
  n: number,
  rates: Rates,
  now: number,
  known: { client?: number; account?: number },
): { start: number; spanMs: number; clientTo: number; accountTo: number } {
  const start = Math.max(now, known.client ?? now, known.account ?? now);
  const spanMs = Math.ceil((n * 1000) / Math.min(rates.client, rates.account));
  return { start, spanMs, clientTo: start + spanMs, accountTo: start + Math.ceil((n * 1000) / rates.account) };
}

/** Conditional moves tried before a pass gives up (a busy account: the next pass tries again). */
const ATTEMPTS = 6;

/**
 * Reserves `n` sends of client `clientId` on its own clock and on the account's (GCRA, docs/decisions: broadcast
 * pacing). Idle clocks: one conditional write each. A busy clock answers its `tat`; the block is placed again after
 * it and each clock moved from the value it now holds, so two pacers never reserve the same span. A block that would
 * start beyond `now + horizonMs` takes nothing (`later`); a clock moved for it meanwhile is given back when it still
 * holds what this call wrote (a failed give-back only leaves budget unused: under the pace, never over it).
 * Requests: 2 when both clocks are idle, up to 4 when busy.
 */
export async function reserve(
  store: PaceStore,
  clientId: number,
  n: number,
  rates: Rates,
  now: number,
  horizonMs: number,
): Promise<Reservation> {
  const known: { client?: number; account?: number } = {};
  // What this call wrote on each clock, with the value it replaced: a later placement moves it from there.
  const written: Partial<Record<'client' | 'account', { from: number | undefined; to: number }>> = {};
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const block = placeBlock(n, rates, now, known);
    if (block.start > now + horizonMs) {
      await giveBack(store, clientId, written, now);
      return { kind: 'later', at: block.start - horizonMs };
    }
    const clientMove = await move(store, clientId, written.client, known.client, block.clientTo, now);
    if (!clientMove.moved) {
      // Another pacer moved it (past what this call wrote, if anything: that span stays taken, unused).
      known.client = clientMove.tat;
      delete written.client;
      continue;
    }
    written.client = { from: written.client?.from ?? known.client, to: block.clientTo };
    const accountMove = await move(store, 'all', written.account, known.account, block.accountTo, now);
    if (!accountMove.moved) {
      known.account = accountMove.tat;
      delete written.account;
      continue;
    }
    written.account = { from: written.account?.from ?? known.account, to: block.accountTo };
    return { kind: 'reserved', start: block.start, spanMs: block.spanMs };
  }
  await giveBack(store, clientId, written, now);
  return { kind: 'later', at: now + horizonMs };
}

/** One clock's move: from what this call wrote on it, else from the value last seen (or idle). */
function move(
  store: PaceStore,
  owner: PaceOwner,
  mine: { to: number } | undefined,
  seen: number | undefined,
  to: number,
  now: number,
) {
  return store.advance(owner, mine ? mine.to : seen, to, now);
}

/** Moves each clock this call wrote back to what it held (or to now, when it was idle), if nobody moved it since. */
async function giveBack(
  store: PaceStore,
  clientId: number,
  written: Partial<Record<'client' | 'account', { from: number | undefined; to: number }>>,
  now: number,
): Promise<void> {
  const back = (owner: PaceOwner, w: { from: number | undefined; to: number } | undefined) =>
    w ? store.advance(owner, w.to, Math.max(w.from ?? now, now), now) : undefined;
  await Promise.all([back(clientId, written.client), back('all', written.account)]);
}
