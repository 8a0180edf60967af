import { MemoryIds } from '../../../../../shared/adapters/memory/client-stores.js';
import { MemoryPaceStore } from '../../../../../shared/adapters/memory/pace-store.js';
import { MemoryRecipientStore } from '../../../../../shared/adapters/memory/recipient-store.js';
import type { PacerDeps } from '../../../../../shared/domain/broadcasts/engine/pacer.js';
import type { EngineBroadcast } from '../../../../../shared/domain/broadcasts/recipient-store.js';
import type {
  BatchMessage,
  BroadcastMessage,
  Queue,
  QueueMessages,
  QueueName,
  Scheduler,
  SendOptions,
} from '../../../../../shared/platform.js';

export const CLIENT = 7;
export const BROADCAST = 3;
export const T0 = new Date('2026-01-15T10:00:00.000Z');

/** A clock the test moves. */
export class TestClock {
  constructor(public at: Date = T0) {}
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}

/** Every message sent, by queue, with its delay. */
export class TestQueue implements Queue {
  readonly sent: { queue: QueueName; message: unknown; delaySeconds: number }[] = [];
  failNext = 0;
  async send<Q extends QueueName>(queue: Q, message: QueueMessages[Q], options?: SendOptions): Promise<void> {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('sqs: send failed (injected)');
    }
    this.sent.push({ queue, message, delaySeconds: options?.delaySeconds ?? 0 });
  }
  async sendBatch<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    for (const m of messages) await this.send(queue, m.message, m.options);
  }
  /** Takes the broadcast messages sent so far out of the queue. */
  takeBroadcast(): BroadcastMessage[] {
    const taken = this.sent.filter((s) => s.queue === 'broadcast').map((s) => s.message as BroadcastMessage);
    this.sent.splice(0, this.sent.length, ...this.sent.filter((s) => s.queue !== 'broadcast'));
    return taken;
  }
  workflow(): { execution_id: number; delaySeconds: number }[] {
    return this.sent
      .filter((s) => s.queue === 'workflow')
      .map((s) => ({
        execution_id: (s.message as { execution_id: number }).execution_id,
        delaySeconds: s.delaySeconds,
      }));
  }
}

export class TestScheduler implements Scheduler {
  readonly scheduled: { instant: Date; queue: QueueName; message: unknown }[] = [];
  async scheduleAt<Q extends QueueName>(instant: Date, queue: Q, message: QueueMessages[Q]): Promise<void> {
    this.scheduled.push({ instant, queue, message });
  }
  async cancel(): Promise<void> {}
}

export function engineDeps(overrides: { accountRate?: number } = {}) {
  const clock = new TestClock();
  const queue = new TestQueue();
  const scheduler = new TestScheduler();
  const recipients = new MemoryRecipientStore();
  const pace = new MemoryPaceStore();
  const ids = new MemoryIds();
  const deps: PacerDeps = { clock, queue, scheduler, recipients, pace, ids, accountRate: overrides.accountRate ?? 40 };
  return { deps, clock, queue, scheduler, recipients, pace };
}

/** A scheduled broadcast of one variant to segment 1 (or another audience), sent now. */
export function scheduledBroadcast(overrides: Partial<EngineBroadcast['definition']> = {}): EngineBroadcast {
  return {
    id: BROADCAST,
    client_id: CLIENT,
    status: 'scheduled',
    draft_version: 2,
    definition: {
      audience: { segment_id: 1 },
      category: 'marketing',
      topic_id: null,
      variants: [{ template_id: 1001 }],
      schedule: { mode: 'now' },
      ...overrides,
    },
  };
}

export const startMessage = (): BroadcastMessage => ({
  client_id: CLIENT,
  broadcast_id: BROADCAST,
  kind: 'start',
  gen: 2,
});
