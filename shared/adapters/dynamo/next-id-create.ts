import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** What an attempt answers when its transaction lost to another writer of the counter: read it again. */
export const LOST: unique symbol = Symbol('lost');

/** Reads of the counter that may follow one another without it moving (a conflict, not another create's progress). */
const MAX_STALLS = 5;
/** A bound on the rounds whatever happens, so a counter written without end by others cannot hold a request forever. */
const MAX_ROUNDS = 64;

/** True when a transaction was cancelled by a condition or a conflict: another writer of its items came first. */
export const lostToAnotherWriter = (error: unknown): boolean => error instanceof TransactionCanceledException;

/**
 * A create that takes the next id of a per-client counter: the counter read strongly, then one transaction
 * conditioned on the id read. Concurrent creates of one client all read the same id and all but one lose; a loss
 * after which the counter moved is another create's progress, so it costs no attempt and the loop ends once the
 * creates in flight are done (or the attempt answers something else, such as a limit reached). Only losses where the
 * counter did not move count as stalls, with a jittered pause before the next read.
 */
export async function createWithNextId<S, T>(options: {
  read: () => Promise<S>;
  idOf: (state: S) => number | undefined;
  attempt: (state: S) => Promise<T | typeof LOST>;
  what: string;
}): Promise<T> {
  let previous: { id: number | undefined } | undefined;
  let stalls = 0;
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const state = await options.read();
    const id = options.idOf(state);
    if (previous && previous.id === id) {
      stalls += 1;
      if (stalls >= MAX_STALLS) break;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** stalls));
    }
    previous = { id };
    const outcome = await options.attempt(state);
    if (outcome !== LOST) return outcome;
  }
  throw new Error(`${options.what} lost to concurrent writes ${MAX_STALLS} times without the counter moving`);
}
