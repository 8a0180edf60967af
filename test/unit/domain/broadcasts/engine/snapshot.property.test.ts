import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryRecipientStore } from '../../../../../shared/adapters/memory/recipient-store.js';
import { runBroadcastStep } from '../../../../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import type { BroadcastMessage } from '../../../../../shared/platform.js';
import { BROADCAST, CLIENT, engineDeps, scheduledBroadcast, startMessage } from './engine-fixtures.js';

/** A worker that dies right after the page's transaction: the write stands, its next message is never sent. */
function crashAfterWrites(recipients: MemoryRecipientStore, crash: () => boolean) {
  const writePage = recipients.writePage.bind(recipients);
  recipients.writePage = async (...args) => {
    const outcome = await writePage(...args);
    if (outcome === 'written' && crash()) throw new Error('worker lost after the page was written');
    return outcome;
  };
}

/** A small deterministic generator, so a failing run replays from fast-check's seed. */
const generator = (seed: number) => {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
};

describe('snapshot: exactly one recipient per audience contact, whatever happens to its pages', () => {
  it('holds under any order of page messages, duplicates, redeliveries and crashes after a write', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 5_000 }), { maxLength: 400 }),
        fc.integer(),
        fc.double({ min: 0, max: 0.4, noNaN: true }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        async (members, seed, duplicateRate, crashRate) => {
          // Prepare
          const random = generator(seed);
          const { deps, queue, recipients } = engineDeps();
          recipients.members.set(`${CLIENT}:1`, new Map(members.map((id) => [id, undefined])));
          recipients.put(scheduledBroadcast());
          crashAfterWrites(recipients, () => random() < crashRate);
          const pending: BroadcastMessage[] = [startMessage()];
          // Act: 1–3 workers at once take messages in a random order (their reads and writes interleave); a
          // duplicate stays pending beside the one taken, a failed one comes back.
          for (let steps = 0; pending.length > 0 && steps < 20_000; steps++) {
            const batch = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
              pending.length > 0 ? pending.splice(Math.floor(random() * pending.length), 1)[0]! : undefined,
            ).filter((m): m is BroadcastMessage => m !== undefined);
            for (const message of [...batch]) if (random() < duplicateRate) batch.push(message);
            const outcomes = await Promise.allSettled(batch.map((message) => runBroadcastStep(deps, message)));
            outcomes.forEach((outcome, i) => {
              if (outcome.status === 'rejected') pending.push(batch[i]!);
            });
            // The pacer is another test's: here the snapshot's own chains run until they end.
            pending.push(...queue.takeBroadcast().filter((m) => m.kind !== 'pace'));
          }
          // Assess
          const written = [...recipients.data.executions.values()].filter((e) => e.broadcast_id === BROADCAST);
          expect(written.map((e) => e.contact_id).sort((a, b) => a - b)).toEqual([...members].sort((a, b) => a - b));
          expect(new Set(written.map((e) => e.id)).size).toBe(written.length);
          const head = await recipients.head(CLIENT, BROADCAST);
          expect(head?.status).toBe('sending');
          expect(head?.snapshot?.total).toBe(members.length);
          expect(recipients.due.size).toBe(members.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
