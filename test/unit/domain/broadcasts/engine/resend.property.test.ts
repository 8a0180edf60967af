import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentEmailKey } from '../../../../../shared/adapters/memory/engine-data.js';
import type { MemoryRecipientStore } from '../../../../../shared/adapters/memory/recipient-store.js';
import { runBroadcastStep } from '../../../../../shared/domain/broadcasts/engine/run-broadcast-step.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../../shared/domain/executions/execution-record.js';
import type { BroadcastMessage } from '../../../../../shared/platform.js';
import { BROADCAST, CLIENT, engineDeps, scheduledBroadcast, T0 } from './engine-fixtures.js';

const CHILD = BROADCAST + 1;

/** What happened to one parent recipient. */
type Fate = 'opened' | 'unopened' | 'machine_opened' | 'failed' | 'skipped' | 'retried_unopened' | 'retried_opened';
const FATES: Fate[] = [
  'opened',
  'unopened',
  'machine_opened',
  'failed',
  'skipped',
  'retried_unopened',
  'retried_opened',
];
/** Sent, and no person opened it: the resend's audience. A machine open (proxy, scanner) writes no counted marker. */
const RESENT: ReadonlySet<Fate> = new Set(['unopened', 'machine_opened', 'retried_unopened']);

let nextId = 1_000_000;
function parentExecution(contactId: number, status: number, sent: boolean): ExecutionRecord {
  const id = nextId++;
  const at = T0.toISOString();
  return {
    id,
    client_id: CLIENT,
    workflow_id: 0,
    contact_id: contactId,
    event_id: null,
    status: status as ExecutionRecord['status'],
    is_test: false,
    attempt: 1,
    template_id: 1001 + (contactId % 2),
    priority_score: 30,
    critical: false,
    cap_day: '2026-01-15',
    scheduled_for: at,
    send_zone: 'Europe/Paris',
    broadcast_id: BROADCAST,
    variant: contactId % 2,
    ...(sent ? { sent_email_id: `se-${id}` } : {}),
    created_at: at,
    updated_at: at,
  };
}

/** The parent's recipients as its send left them, with the counted-open markers human opens wrote. */
function seedParent(recipients: MemoryRecipientStore, fates: Map<number, Fate>): void {
  const put = (e: ExecutionRecord) => recipients.data.executions.set(`${CLIENT}\u0000${e.id}`, e);
  const open = (e: ExecutionRecord) =>
    recipients.data.countedEngagement.add(`${sentEmailKey(CLIENT, e.sent_email_id!)}\u0000open`);
  for (const [contactId, fate] of fates) {
    if (fate === 'failed') put(parentExecution(contactId, EXECUTION_STATUS.failed, false));
    else if (fate === 'skipped') put(parentExecution(contactId, EXECUTION_STATUS.skipped, false));
    else if (fate.startsWith('retried')) {
      put(parentExecution(contactId, EXECUTION_STATUS.retried, false));
      const again = parentExecution(contactId, EXECUTION_STATUS.completed, true);
      put(again);
      if (fate === 'retried_opened') open(again);
    } else {
      const sent = parentExecution(contactId, EXECUTION_STATUS.completed, true);
      put(sent);
      if (fate === 'opened') open(sent);
    }
  }
  recipients.put({ ...scheduledBroadcast(), status: 'sent', started_at: T0.toISOString() });
  recipients.put({
    ...scheduledBroadcast({ variants: [{ template_id: 1001, subject: 'In case you missed it' }] }),
    id: CHILD,
    kind: 'resend',
    parent_id: BROADCAST,
    draft_version: 1,
  });
}

/** A worker that dies right after the page's transaction: the write stands, its next message is never sent. */
function crashAfterWrites(recipients: MemoryRecipientStore, crash: () => boolean) {
  const writePage = recipients.writePage.bind(recipients);
  recipients.writePage = async (...args) => {
    const outcome = await writePage(...args);
    if (outcome === 'written' && crash()) throw new Error('worker lost after the page was written');
    return outcome;
  };
}

const generator = (seed: number) => {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
};

describe('resend to non-openers: each parent recipient sent and opened by no person gets exactly one resend', () => {
  it('holds under any order of page messages, duplicates, redeliveries and crashes after a write', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 3_000 }), { maxLength: 300 }),
        fc.array(fc.constantFrom(...FATES), { minLength: 300, maxLength: 300 }),
        fc.integer(),
        fc.double({ min: 0, max: 0.4, noNaN: true }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        async (contacts, fateList, seed, duplicateRate, crashRate) => {
          // Prepare
          const random = generator(seed);
          const { deps, queue, recipients } = engineDeps();
          const fates = new Map(contacts.map((id, i) => [id, fateList[i]!]));
          seedParent(recipients, fates);
          crashAfterWrites(recipients, () => random() < crashRate);
          const pending: BroadcastMessage[] = [{ client_id: CLIENT, broadcast_id: CHILD, kind: 'start', gen: 1 }];
          // Act
          for (let steps = 0; pending.length > 0 && steps < 20_000; steps++) {
            const batch = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
              pending.length > 0 ? pending.splice(Math.floor(random() * pending.length), 1)[0]! : undefined,
            ).filter((m): m is BroadcastMessage => m !== undefined);
            for (const message of [...batch]) if (random() < duplicateRate) batch.push(message);
            const outcomes = await Promise.allSettled(batch.map((message) => runBroadcastStep(deps, message)));
            outcomes.forEach((outcome, i) => {
              if (outcome.status === 'rejected') pending.push(batch[i]!);
            });
            pending.push(...queue.takeBroadcast().filter((m) => m.kind !== 'pace'));
          }
          // Assess
          const resent = [...recipients.data.executions.values()].filter((e) => e.broadcast_id === CHILD);
          const expected = [...fates].filter(([, fate]) => RESENT.has(fate)).map(([id]) => id);
          expect(resent.map((e) => e.contact_id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
          for (const e of resent) {
            expect(e).toMatchObject({
              status: EXECUTION_STATUS.queued,
              subject_override: 'In case you missed it',
              // The template the parent sent this contact (its variant's).
              template_id: 1001 + (e.contact_id % 2),
            });
          }
          const child = await recipients.head(CLIENT, CHILD);
          expect(child?.status).toBe('sending');
          expect(child?.snapshot?.total).toBe(expected.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads the parent listing in pages cut at a contact: a retried contact straddling a page is taken once', async () => {
    // Prepare: 97 contacts sent once, then one retried (2 executions) exactly at the page's limit (98).
    const { deps, queue, recipients } = engineDeps();
    const fates = new Map<number, Fate>();
    for (let i = 0; i < 97; i++) fates.set(16 * (i + 1), 'unopened');
    fates.set(16 * 98, 'retried_unopened');
    fates.set(16 * 99, 'opened');
    fates.set(16 * 100, 'unopened');
    seedParent(recipients, fates);
    const pending: BroadcastMessage[] = [{ client_id: CLIENT, broadcast_id: CHILD, kind: 'start', gen: 1 }];
    // Act
    while (pending.length > 0) {
      await runBroadcastStep(deps, pending.shift()!);
      pending.push(...queue.takeBroadcast().filter((m) => m.kind !== 'pace'));
    }
    // Assess
    const resent = [...recipients.data.executions.values()].filter((e) => e.broadcast_id === CHILD);
    expect(resent.map((e) => e.contact_id).sort((a, b) => a - b)).toEqual(
      [...Array.from({ length: 97 }, (_, i) => 16 * (i + 1)), 16 * 98, 16 * 100].sort((a, b) => a - b),
    );
  });
});
