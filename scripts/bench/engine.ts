import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { MappingSizing } from '../../functions/queue-sizing.js';
import { createQueueDispatcher } from '../../local/queue-functions.js';
import type { LocalRuntime } from '../../local/runtime.js';
import type { RequestCounter } from '../../shared/adapters/dynamo/request-counter.js';
import type { SubscriptionPlan } from '../../shared/domain/plans/catalog.js';
import { type CpuSample, type CpuSpent, cpuBetween, machineCores } from './cpu-usage.js';
import type { CapturedCall, EngineFloor, RequestCapture } from './engine-floor.js';
import type { EngineMeter, MeteredDelivery, MeteredStreamInvocation, SideCalls } from './engine-meter.js';
import { benchContacts, type Send } from './scenarios.js';

/**
 * The engine phase of `npm run bench`: a client on the growth plan with 1 000 contacts (one bulk
 * request) receives 1 000 async `trial_ending` events over HTTP, each starting exactly one immediate workflow for an
 * existing contact, until 1 000 mails are in the SES emulator and the queues are idle. A smaller run of the same
 * kind warms Node and the JVM first. With `floor`, the DynamoDB requests of the measured run (first event to last
 * mail) are then replayed straight at DynamoDB Local (scripts/bench/engine-floor.ts): the engine's own floor, in the
 * same process and JVM.
 */
export const ENGINE_EVENT_TYPE = 'trial_ending';
export const ENGINE_PLAN: SubscriptionPlan['tier'] = 'growth';
const WARM_UP_EVENTS = 100;
const POLL_MS = 100;
/** Longest wait for the stream functions before the floor is replayed anyway (the console says which). */
const SETTLE_LIMIT_MS = 180_000;

export interface EngineOptions {
  events: number;
  /** POST /client/events requests in flight at once. */
  concurrency: number;
  /** Longest wait for the mails and idle queues after the first event. */
  deadlineMs: number;
}

/** What one step of the path cost, from the metered deliveries (processing, execution) or the HTTP side (ingest). */
export interface StepFigures {
  /** Events or e-mails (executions) the step handled. */
  units: number;
  dynamo: { total: number; byCommand: Record<string, number> };
  calls: SideCalls;
  /** Queue steps only: one function run per delivery of a message; a unit's figures sum all its deliveries. */
  queue?: {
    deliveries: number;
    redeliveries: number;
    failedDeliveries: number;
    /** The most one delivery cost (the budgets are per run of the function), and the costliest run's requests. */
    maxPerDelivery: { dynamo: number; ses: number; worst: Record<string, number> };
    /** Units by the DynamoDB requests of all their deliveries (`"4": 994`). */
    histogram: Record<string, number>;
    /** Units that took more than one delivery, and why (`duplicate`: a redelivery found it taken or done). */
    extra: { units: number; sesRetries: number };
  };
}

export interface EngineRun {
  options: EngineOptions;
  eventType: string;
  plan: string;
  events: number;
  mails: number;
  ingestMs: number;
  endToEndMs: number;
  ingest: StepFigures;
  /**
   * The rate limit's window writes during the run (an `UpdateItem` each, inside `ingest`'s figures): every
   * authenticated API request pays one, the event's own writes are the rest.
   */
  rateLimitWrites: number;
  processing: StepFigures;
  execution: StepFigures;
  /** SES status notifications: the local SES publishes a Send and a Delivery for every e-mail. */
  notifications: StepFigures;
  /** The stream functions' invocations during the run (webhook-facts, day-counters): `units` is invocations. */
  streams: StepFigures;
  /** The local stream poller's own reads of the table's stream during the run (GetRecords…), by command. */
  streamReads: Record<string, number>;
  /** Every message sent to the local queues meanwhile (`engine.queue.sends`), scheduler deliveries included. */
  queueSends: number;
  deadLetters: number;
  completedExecutions: number;
  /** How the local queue polled the path's functions (their AWS mappings) and the SES rate the sender's is for. */
  sizing: Record<'events' | 'workflow' | 'ses-status', MappingSizing>;
  sesMaxSendRate: number;
  /** The same run's DynamoDB requests replayed straight at DynamoDB Local, when measured. */
  floor?: EngineFloor;
  /**
   * CPU seconds the runtime's Node.js process and DynamoDB Local's JVM spent from the first event to the last mail,
   * and the cores they share; absent where the JVM's CPU cannot be read.
   */
  cpu?: CpuSpent & { cores: number };
}

export interface EngineBenchDeps {
  runtime: LocalRuntime;
  counter: RequestCounter;
  meter: EngineMeter;
  send: Send;
  newClient(plan: SubscriptionPlan['tier']): Promise<string>;
  /** The rate limit's window writes so far (one per authenticated API request); counted apart from the ingest's. */
  rateCounts?: () => number;
  /** This process's and DynamoDB Local's CPU seconds now (scripts/bench/cpu-usage.ts). */
  cpu?: () => CpuSample;
  /** Records the measured run's DynamoDB calls and replays them: the engine's floor, side by side. */
  floor?: {
    capture: RequestCapture;
    /** The engine's table as it is (taken before the measured run: where every replay starts). */
    snapshot(): Promise<Record<string, AttributeValue>[]>;
    measure(calls: readonly CapturedCall[], before: readonly Record<string, AttributeValue>[]): Promise<EngineFloor>;
  };
}

export async function runEngineBench(deps: EngineBenchDeps, options: EngineOptions): Promise<EngineRun> {
  console.log(`Engine: warming up with ${WARM_UP_EVENTS} events…`);
  await runEvents(deps, await prepareClient(deps, 'warm', WARM_UP_EVENTS), { ...options, events: WARM_UP_EVENTS });

  const client = await prepareClient(deps, 'run', options.events);
  console.log(
    `Engine: ${options.events} async ${ENGINE_EVENT_TYPE} events, ${options.concurrency} requests in flight…`,
  );
  deps.meter.reset();
  deps.counter.reset();
  const sendsBefore = deps.runtime.engine.queue.sends;
  const streamReadsBefore = deps.runtime.streams.requests();
  const rateBefore = deps.rateCounts?.() ?? 0;
  const deadLettersBefore = deps.runtime.engine.queue.deadLetters.length;
  // The table before the run, outside its clock: each floor replay starts from it, so conditions meet what they met.
  const before = (await deps.floor?.snapshot()) ?? [];
  deps.floor?.capture.start();
  const timing = await runEvents(deps, client, options);
  const captured = deps.floor?.capture.stop() ?? [];
  const byCommand = deps.counter.snapshot();
  const streamReads = minus(deps.runtime.streams.requests(), streamReadsBefore).byCommand;
  const streams = streamsOf(deps.meter.streamInvocations);
  const rateLimitWrites = (deps.rateCounts?.() ?? 0) - rateBefore;
  const queueSends = deps.runtime.engine.queue.sends - sendsBefore;

  const processing = stepOf(deps.meter.deliveries, 'events');
  const execution = stepOf(deps.meter.deliveries, 'workflow');
  const notifications = stepOf(deps.meter.deliveries, 'ses-status');
  const completed = await completedExecutions(deps, client.key);
  const cpu = timing.cpu ? cpuBetween(timing.cpu.started, timing.cpu.mailed) : undefined;
  // Sized as the runtime's own consumers were (the runtime's SES_MAX_SEND_RATE).
  const dispatcher = createQueueDispatcher();
  let floor: EngineFloor | undefined;
  if (deps.floor) {
    // The requests sent between the first event and the last mail: the work the end-to-end time measures.
    const window = captured.filter((c) => c.startedAt >= timing.startedAt && c.startedAt <= timing.mailedAt);
    console.log(
      `Engine: ${timing.mails} e-mails in ${(timing.endToEndMs / 1000).toFixed(1)} s ` +
        `(${((timing.mails / timing.endToEndMs) * 1000).toFixed(1)}/s); waiting for the stream functions…`,
    );
    // Changes of the run may still be reaching the stream functions after its last mail: the replay waits for them,
    // so it never shares the emulator with their backlog.
    const settling = performance.now();
    const settled = await Promise.race([
      deps.runtime.streams.settled().then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), SETTLE_LIMIT_MS).unref()),
    ]);
    const after = ((performance.now() - settling) / 1000).toFixed(1);
    console.log(`Engine floor: stream functions ${settled ? 'settled' : 'still busy'} after ${after} s`);
    console.log(`Engine floor: replaying ${window.length} DynamoDB requests straight at DynamoDB Local…`);
    floor = await deps.floor.measure(window, before);
  }
  return {
    options,
    eventType: ENGINE_EVENT_TYPE,
    plan: ENGINE_PLAN,
    events: options.events,
    mails: timing.mails,
    ingestMs: timing.ingestMs,
    endToEndMs: timing.endToEndMs,
    // Whatever no queue function's or stream function's scope claimed: the API's requests (and the outbox
    // sweeper's, were it to run).
    ingest: {
      units: options.events,
      dynamo: minus(
        byCommand,
        processing.dynamo.byCommand,
        execution.dynamo.byCommand,
        notifications.dynamo.byCommand,
        streams.dynamo.byCommand,
      ),
      calls: { ...deps.meter.unscoped },
    },
    streams,
    streamReads,
    rateLimitWrites,
    processing,
    execution,
    notifications,
    queueSends,
    deadLetters: deps.runtime.engine.queue.deadLetters.length - deadLettersBefore,
    completedExecutions: completed,
    sizing: {
      events: dispatcher.sizingOf('events'),
      workflow: dispatcher.sizingOf('workflow'),
      'ses-status': dispatcher.sizingOf('ses-status'),
    },
    sesMaxSendRate: dispatcher.sesMaxSendRate,
    ...(floor ? { floor } : {}),
    ...(cpu ? { cpu: { ...cpu, cores: machineCores() } } : {}),
  };
}

interface PreparedClient {
  key: string;
  tag: string;
  emails: string[];
}

/** A client on the growth plan (20 000 e-mails a day) with `count` contacts, a daily cap no event here reaches. */
async function prepareClient(deps: EngineBenchDeps, tag: string, count: number): Promise<PreparedClient> {
  const key = await deps.newClient(ENGINE_PLAN);
  const settings = await deps.send('PATCH', '/client/settings', key, { json: { max_emails_per_day: 10 } });
  if (settings.status !== 200) throw new Error(`PATCH /client/settings answered ${settings.status}`);
  const contacts = benchContacts(count).map((c) => ({ ...c, email: c.email.replace('bench.', `engine-${tag}.`) }));
  const res = await deps.send('POST', '/client/contacts/bulk', key, { json: { contacts } });
  if (res.status !== 200 || res.body.data?.created !== count) throw new Error(`bulk create answered ${res.status}`);
  return { key, tag: `engine-${tag}.`, emails: contacts.map((c) => c.email) };
}

/** Fires one event per contact, then waits for as many mails in the SES emulator and for idle queues. */
async function runEvents(deps: EngineBenchDeps, client: PreparedClient, options: EngineOptions) {
  const cpuStarted = deps.cpu?.();
  const started = performance.now();
  const deadline = started + options.deadlineMs;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < options.events; i = next++) {
      const body = { type: ENGINE_EVENT_TYPE, email: client.emails[i], idempotency_key: `${client.tag}${i}` };
      const res = await deps.send('POST', '/client/events', client.key, { json: body });
      if (res.status !== 202)
        throw new Error(`POST /client/events answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const ingestMs = performance.now() - started;
  const mails = new MailWatch(deps.runtime.sesUrl, client.tag, Date.now() - ingestMs - 1000);
  while ((await mails.count()) < options.events) {
    if (performance.now() > deadline)
      throw new Error(`only ${await mails.count()} of ${options.events} mails reached the SES emulator in time`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const mailedAt = performance.now();
  const cpuMailed = deps.cpu?.();
  const endToEndMs = mailedAt - started;
  // The local SES publishes each e-mail's Delivery a second after its Send (a delayed message, which `idle` does not
  // wait for): wait until the status queue is empty too.
  const queue = deps.runtime.engine.queue;
  do {
    await queue.idle(Math.max(1_000, deadline - performance.now()));
    if (queue.depth('ses-status') > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  } while (queue.depth('ses-status') > 0 && performance.now() < deadline);
  const cpu = cpuStarted && cpuMailed ? { started: cpuStarted, mailed: cpuMailed } : undefined;
  return { ingestMs, endToEndMs, mails: await mails.count(), startedAt: started, mailedAt, cpu };
}

/**
 * The client's completed executions, counted page by page: a list's `meta.total` is a lower bound past its first
 * hundred or so (`total_is_exact` false; eight shards of 101 read 808 where 1,000 had completed).
 */
async function completedExecutions(deps: EngineBenchDeps, key: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const path: string = `/client/executions?status=3&per_page=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await deps.send('GET', path, key, {});
    if (res.status !== 200) throw new Error(`GET /client/executions answered ${res.status}`);
    count += (res.body.data?.executions as unknown[] | undefined)?.length ?? 0;
    cursor = (res.body.data?.next_cursor as string | null | undefined) ?? null;
  } while (cursor);
  return count;
}

/** The mails to one run's recipients in aws-ses-v2-local, read incrementally (`/store?since=` epoch seconds). */
class MailWatch {
  private readonly seen = new Set<string>();
  private since: number;

  constructor(
    private readonly sesUrl: string,
    private readonly recipientTag: string,
    sinceMs: number,
  ) {
    this.since = Math.floor(sinceMs / 1000);
  }

  async count(): Promise<number> {
    const res = await fetch(`${this.sesUrl}/store?since=${this.since}`);
    if (!res.ok) throw new Error(`SES store answered ${res.status}`);
    const { emails } = (await res.json()) as {
      emails: { messageId: string; at: number; destination: { to: string[] } }[];
    };
    for (const mail of emails) {
      if (mail.destination.to.some((to) => to.includes(this.recipientTag))) this.seen.add(mail.messageId);
      // Mails of the newest second come again next time; the set counts each once.
      this.since = Math.max(this.since, mail.at);
    }
    return this.seen.size;
  }
}

/** One queue's deliveries summed per message target (an event, an execution), all deliveries of it included. */
function stepOf(deliveries: readonly MeteredDelivery[], queue: MeteredDelivery['queue']): StepFigures {
  const mine = deliveries.filter((d) => d.queue === queue);
  const perTarget = new Map<number | string, { dynamo: number; ses: number; deliveries: number }>();
  const byCommand: Record<string, number> = {};
  const calls: SideCalls = { sqs: 0, schedules: 0, ses: 0 };
  const maxPerDelivery = { dynamo: 0, ses: 0, worst: {} as Record<string, number> };
  for (const d of mine) {
    const target = perTarget.get(d.target) ?? { dynamo: 0, ses: 0, deliveries: 0 };
    target.dynamo += d.dynamo.requests;
    target.ses += d.calls.ses;
    target.deliveries += 1;
    perTarget.set(d.target, target);
    for (const [command, n] of Object.entries(d.dynamo.by_command)) byCommand[command] = (byCommand[command] ?? 0) + n;
    calls.sqs += d.calls.sqs;
    calls.schedules += d.calls.schedules;
    calls.ses += d.calls.ses;
    if (d.dynamo.requests > maxPerDelivery.dynamo)
      Object.assign(maxPerDelivery, { dynamo: d.dynamo.requests, worst: d.dynamo.by_command });
    maxPerDelivery.ses = Math.max(maxPerDelivery.ses, d.calls.ses);
  }
  const histogram: Record<string, number> = {};
  for (const t of perTarget.values()) histogram[t.dynamo] = (histogram[t.dynamo] ?? 0) + 1;
  const targets = [...perTarget.values()];
  return {
    units: perTarget.size,
    dynamo: { total: sum(byCommand), byCommand },
    calls,
    queue: {
      deliveries: mine.length,
      redeliveries: mine.filter((d) => d.receiveCount > 1).length,
      failedDeliveries: mine.filter((d) => d.failed).length,
      maxPerDelivery,
      histogram,
      extra: {
        units: targets.filter((t) => t.deliveries > 1).length,
        sesRetries: targets.filter((t) => t.ses > 1).length,
      },
    },
  };
}

/** The stream functions' invocations summed: requests by command and side calls; `units` counts invocations. */
function streamsOf(invocations: readonly MeteredStreamInvocation[]): StepFigures {
  const byCommand: Record<string, number> = {};
  const calls: SideCalls = { sqs: 0, schedules: 0, ses: 0 };
  for (const i of invocations) {
    for (const [command, n] of Object.entries(i.dynamo.by_command)) byCommand[command] = (byCommand[command] ?? 0) + n;
    calls.sqs += i.calls.sqs;
    calls.schedules += i.calls.schedules;
    calls.ses += i.calls.ses;
  }
  return { units: invocations.length, dynamo: { total: sum(byCommand), byCommand }, calls };
}

function minus(total: Record<string, number>, ...parts: Record<string, number>[]): StepFigures['dynamo'] {
  const left = { ...total };
  for (const part of parts) for (const [command, n] of Object.entries(part)) left[command] = (left[command] ?? 0) - n;
  const byCommand = Object.fromEntries(Object.entries(left).filter(([, n]) => n !== 0));
  return { total: sum(byCommand), byCommand };
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
