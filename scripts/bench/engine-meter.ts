import { AsyncLocalStorage } from 'node:async_hooks';
import { QUEUE_FUNCTION_DEFAULTS, queueFunctions } from '../../functions/queues.js';
import type { LocalEngine } from '../../local/engine/local-engine.js';
import type { LocalStreamPoller } from '../../local/engine/stream-poller.js';
import { createQueueDispatcher, type LocalDelivery } from '../../local/queue-functions.js';
import type { RequestCounter, RequestUsage } from '../../shared/adapters/dynamo/request-counter.js';
import type { Ports } from '../../shared/composition/port-registry.js';
import { MAX_QUEUE_BATCH, type QueueName } from '../../shared/platform.js';
import type { CapacityMeter } from './capacity-meter.js';
import type { Capacity } from './stats-cost.js';

/** Calls one message (or the HTTP side) made to the engine's other services; DynamoDB is counted apart. */
export interface SideCalls {
  sqs: number;
  schedules: number;
  ses: number;
}

/** One delivery of one message to its queue function, with everything it cost. */
export interface MeteredDelivery {
  queue: QueueName;
  /**
   * The event id (events queue), execution id (workflow queue), SNS MessageId (ses-status queue) or `run:seq`
   * (journey queue) of the message.
   */
  target: number | string;
  receiveCount: number;
  failed: boolean;
  dynamo: RequestUsage;
  calls: SideCalls;
  /**
   * The status notification's SES `eventType` (or `notificationType`): `Send`, `Delivery`, `Open`… (ses-status); a
   * run message's `due` or `wake` (journey); a segments or broadcast message's `kind`.
   */
  kind?: string;
  /** Contacts a segments message named for evaluation. */
  contacts?: number;
  /** Capacity units consumed, when a CapacityMeter is attached (the counters' bench). */
  capacity?: Capacity;
}

/** One invocation of a stream function (functions/streams.ts) with the DynamoDB requests and calls it made. */
export interface MeteredStreamInvocation {
  handler: string;
  dynamo: RequestUsage;
  calls: SideCalls;
}

/** createLocalEngine's default visibility timeout (local/engine/local-engine.ts); the re-registered consumers keep it. */
const LOCAL_VISIBILITY_TIMEOUT_MS = 5_000;

const noCalls = (): SideCalls => ({ sqs: 0, schedules: 0, ses: 0 });

/**
 * Attributes the engine's requests to the message that caused them. The queue functions are registered again on the
 * runtime's in-process queue (same table, batch sizes, concurrency, retries, visibility) with each message of a batch run as its
 * own invocation — in parallel, as the batch's records run — inside its own async scope: DynamoDB requests through
 * `RequestCounter.measure`, SQS / Scheduler / SES calls through the counting ports of `ports()`. What no message
 * scope claims (the HTTP ingest; the outbox sweeper, should it run) is left in `unscoped`.
 */
export class EngineMeter {
  readonly deliveries: MeteredDelivery[] = [];
  readonly streamInvocations: MeteredStreamInvocation[] = [];
  unscoped: SideCalls = noCalls();
  private readonly scopes = new AsyncLocalStorage<SideCalls>();

  private counter?: RequestCounter;
  /** Set by the counters' bench (scripts/bench/stats.ts): each delivery's capacity units are measured too. */
  capacity?: CapacityMeter;

  constructor(private readonly engine: LocalEngine) {}

  /** The delivery whose scope the caller runs in (one object per delivery), else undefined. */
  currentScope(): object | undefined {
    return this.scopes.getStore();
  }

  /** Forgets what was metered so far (between the warm-up and the measured run). */
  reset(): void {
    this.deliveries.length = 0;
    this.streamInvocations.length = 0;
    this.unscoped = noCalls();
  }

  /** The engine's queue, scheduler and mailer, each counting its calls into the calling message's scope. */
  ports(): Pick<Ports, 'queue' | 'scheduler' | 'mailer'> {
    const { queue, scheduler, mailer } = this.engine.overrides;
    const calls = () => this.scopes.getStore() ?? this.unscoped;
    return {
      queue: {
        send: (name, message, options) => {
          calls().sqs += 1;
          return queue.send(name, message, options);
        },
        sendBatch: (name, messages) => {
          calls().sqs += Math.ceil(messages.length / MAX_QUEUE_BATCH);
          return queue.sendBatch(name, messages);
        },
      },
      scheduler: {
        scheduleAt: (instant, name, message, scheduleName) => {
          calls().schedules += 1;
          return scheduler.scheduleAt(instant, name, message, scheduleName);
        },
        cancel: (scheduleName) => {
          calls().schedules += 1;
          return scheduler.cancel(scheduleName);
        },
      },
      mailer: {
        send: (email) => {
          calls().ses += 1;
          return mailer.send(email);
        },
      },
    };
  }

  /**
   * Puts the metered consumers in place of the runtime's own on every queue of functions/queues.ts; `counter` is
   * the container's (its DynamoDB client reports every request to it and to the caller's `measure` scope).
   */
  install(counter: RequestCounter, region: string): void {
    this.counter = counter;
    const dispatcher = createQueueDispatcher({ region });
    for (const fn of queueFunctions) {
      this.engine.queue.consume(fn.queue, {
        ...dispatcher.sizingOf(fn.queue),
        maxReceiveCount: fn.maxReceiveCount ?? QUEUE_FUNCTION_DEFAULTS.maxReceiveCount,
        visibilityTimeoutMs: LOCAL_VISIBILITY_TIMEOUT_MS,
        deliver: async (deliveries) => {
          const outcomes = await Promise.all(
            deliveries.map((d) => this.deliverOne(fn.queue, d, () => dispatcher.deliver(fn.queue, [d]))),
          );
          return { failed: outcomes.flatMap((o) => o.failed) };
        },
      });
    }
  }

  /**
   * Runs each stream function invocation in a scope of its own, as a queue message's: its requests are its own row,
   * not the HTTP ingest's (what no scope claims).
   */
  installStreams(poller: LocalStreamPoller): void {
    poller.wrapInvocations(async (handler, invoke) => {
      const calls = noCalls();
      const { result, usage } = await this.scopes.run(calls, () => this.counter!.measure(invoke));
      this.streamInvocations.push({ handler, dynamo: usage, calls });
      return result;
    });
  }

  private async deliverOne(
    queue: QueueName,
    delivery: LocalDelivery,
    run: () => Promise<{ failed: string[] }>,
  ): Promise<{ failed: string[] }> {
    const calls = noCalls();
    const measured = () => this.scopes.run(calls, () => this.counter!.measure(run));
    const {
      result: { result, usage },
      capacity,
    } = this.capacity ? await this.capacity.measure(measured) : { result: await measured(), capacity: undefined };
    const body = JSON.parse(delivery.body) as {
      event_id?: number;
      execution_id?: number;
      run_id?: number;
      seq?: number;
      MessageId?: string;
      Message?: string;
      kind?: string;
      contact_ids?: number[];
    };
    this.deliveries.push({
      queue,
      target:
        queue === 'journey'
          ? `${body.run_id}:${body.seq}`
          : (body.MessageId ?? Number(body.event_id ?? body.execution_id)),
      receiveCount: delivery.receiveCount,
      failed: result.failed.length > 0,
      dynamo: usage,
      calls,
      ...(queue === 'ses-status' ? { kind: kindOf(body) } : {}),
      // A run message naming an execution is its send step's wake (the executor's); any other is the run being due.
      ...(queue === 'journey' ? { kind: body.execution_id === undefined ? 'due' : 'wake' } : {}),
      // A segments or broadcast message: its kind (contacts, backfill; start, snapshot, pace…) and the contacts it names.
      ...(queue === 'segments' || queue === 'broadcast' ? { kind: body.kind } : {}),
      ...(body.contact_ids ? { contacts: body.contact_ids.length } : {}),
      ...(capacity ? { capacity } : {}),
    });
    return result;
  }
}

/** An SES notification's kind, from its SNS envelope (`Message`) or the raw event. */
function kindOf(body: { Message?: string }): string | undefined {
  try {
    const event = (typeof body.Message === 'string' ? JSON.parse(body.Message) : body) as {
      eventType?: string;
      notificationType?: string;
    };
    return event.eventType ?? event.notificationType;
  } catch {
    return undefined;
  }
}
