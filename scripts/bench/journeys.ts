import { scanJourneyRuns } from '../chaos/journey-runs.js';
import type { LocalRuntime } from '../../local/runtime.js';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import type { RequestCounter } from '../../shared/adapters/dynamo/request-counter.js';
import type { RunRecord } from '../../shared/domain/runs/run-record.js';
import { cartJourney } from '../chaos/journey-crash-run.js';
import type { EngineMeter, MeteredDelivery } from './engine-meter.js';
import type { Budget } from './engine-report.js';
import { benchContacts, type Send } from './scenarios.js';

/**
 * The journeys' bench (`BENCH_ONLY=journeys`): what one journey transition and one event meeting a waiting run cost.
 * A growth client with `contacts` contacts publishes the cart journey (cart_abandoned keyed by cart_id →
 * wait_for_event checkout_completed with match_key, 2-minute timeout → a reminder); then, one phase at a time so each
 * delivery belongs to one kind of work:
 * 1. every contact abandons a cart: the event enters the journey; advance-runs enters the wait;
 * 2. half check out: the event resumes the waiting run; advance-runs takes on_event to the end;
 * 3. the other half send a checkout for another cart (a waiting run, another key), and the first half one more
 *    (no waiting run left): the events resume nothing;
 * 4. the waits time out: advance-runs takes on_timeout to the send step; the executor sends and wakes the run;
 *    advance-runs finds the send ended and ends the run.
 * Requests are counted per delivery by the engine meter (DynamoDB through the container's RequestCounter, SQS,
 * Scheduler and SES through its counting ports) and averaged per unit.
 */
export interface JourneysBenchDeps {
  runtime: LocalRuntime;
  meter: EngineMeter;
  counter: RequestCounter;
  send: Send;
  newClient(): Promise<{ id: number; key: string }>;
}

export interface WorkFigures {
  work: string;
  /** The queue function that did it. */
  fn: string;
  /** First deliveries of the work's messages. */
  deliveries: number;
  /** Deliveries of a message beyond its first (the local queue's visibility timeout passed, a failed try). */
  redeliveries: number;
  /** Per first delivery (mean). */
  dynamo: number;
  byCommand: Record<string, number>;
  sqs: number;
  schedules: number;
  ses: number;
  /** The costliest delivery's DynamoDB requests. */
  maxDynamo: number;
  /** The most SQS sends and Scheduler calls together one delivery made. */
  maxMessages: number;
  /** The most SES sends one delivery made. */
  maxSes: number;
}

export interface JourneysBenchRun {
  date: string;
  contacts: number;
  rows: WorkFigures[];
  /** The executor's requests over every delivery of the send steps' executions, and the e-mails SES accepted. */
  perEmail: { emails: number; deliveries: number; dynamo: number; sqs: number };
}

const POLL_MS = 250;
/** Long enough that the phases before the timeouts end while the other half still waits. */
const TIMEOUT_MINUTES = 2;

export async function runJourneysBench(deps: JourneysBenchDeps, contacts = 200): Promise<JourneysBenchRun> {
  const client = await deps.newClient();
  const settings = await deps.send('PATCH', '/client/settings', client.key, { json: { max_emails_per_day: 10 } });
  if (settings.status !== 200) throw new Error(`PATCH /client/settings answered ${settings.status}`);
  const people = benchContacts(contacts).map((c) => ({ ...c, email: c.email.replace('bench.', 'journeys.') }));
  const bulk = await deps.send('POST', '/client/contacts/bulk', client.key, { json: { contacts: people } });
  if (bulk.status !== 200) throw new Error(`bulk create answered ${bulk.status}`);
  const created = await deps.send('POST', '/client/journeys', client.key, {
    json: { name: 'Cart reminder (bench)', definition: cartJourney(TIMEOUT_MINUTES) },
  });
  if (created.status !== 201) throw new Error(`POST /client/journeys answered ${created.status}`);
  const published = await deps.send('POST', `/client/journeys/${created.body.data.id}/publish`, client.key, {
    json: { draft_version: created.body.data.draft_version },
  });
  if (published.status !== 201) throw new Error(`publish answered ${published.status}`);
  const journeyId = created.body.data.id as number;
  const db = createDocumentClient({
    region: process.env['AWS_REGION'] ?? 'us-east-1',
    endpoint: deps.runtime.dynamoEndpoint,
  });
  const runs = () => runsOf(db, deps.runtime.tableName, journeyId);
  const events = async (bodies: Record<string, unknown>[]) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < bodies.length; i = next++) {
          const res = await deps.send('POST', '/client/events', client.key, { json: bodies[i] });
          if (res.status !== 202) throw new Error(`POST /client/events answered ${res.status}`);
        }
      }),
    );
  };
  const until = async (what: string, holds: (all: RunRecord[]) => boolean, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!holds(await runs())) {
      if (Date.now() > deadline) throw new Error(`journeys bench: ${what} not reached in time`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    await deps.runtime.engine.queue.idle(30_000);
  };
  const cart = (i: number) => `bench-cart-${i}`;
  const checkingOut = people.map((_, i) => i).filter((i) => i % 2 === 0);
  const waitingOn = people.map((_, i) => i).filter((i) => i % 2 === 1);
  const rows: WorkFigures[] = [];
  const phase = (kinds: [string, string, (d: MeteredDelivery) => boolean][]) => {
    for (const [work, fn, picks] of kinds) rows.push(figuresOf(work, fn, deps.meter.deliveries.filter(picks)));
    deps.meter.reset();
  };
  const onQueue = (queue: MeteredDelivery['queue']) => (d: MeteredDelivery) => d.queue === queue;

  console.log(`Journeys: ${contacts} carts abandoned…`);
  deps.meter.reset();
  await events(people.map((p, i) => ({ type: 'cart_abandoned', email: p.email, cart_id: cart(i) })));
  await until(
    'every run waiting',
    (all) => all.length === contacts && all.every((r) => r.status === 'waiting'),
    60_000,
  );
  phase([
    ['event entering the journey (a run, its lock and marker)', 'process-events', onQueue('events')],
    ['transition: the entry into wait_for_event (marker, waits_v)', 'advance-runs', onQueue('journey')],
  ]);

  console.log(`Journeys: ${checkingOut.length} checkouts meeting their waiting run…`);
  await events(checkingOut.map((i) => ({ type: 'checkout_completed', email: people[i]!.email, cart_id: cart(i) })));
  const ended = (i: number, all: RunRecord[]) => all.find((r) => r.key_value === cart(i))?.status === 'completed';
  await until('the checked-out runs completed', (all) => checkingOut.every((i) => ended(i, all)), 60_000);
  phase([
    ['event matching a waiting run (resolved in its commit)', 'process-events', onQueue('events')],
    ['transition: on_event to the end', 'advance-runs', onQueue('journey')],
  ]);

  console.log('Journeys: checkouts meeting no waiting run…');
  await events(waitingOn.map((i) => ({ type: 'checkout_completed', email: people[i]!.email, cart_id: `other-${i}` })));
  await deps.runtime.engine.queue.idle(60_000);
  phase([['event of the awaited type, the contact waiting on another key', 'process-events', onQueue('events')]]);
  await events(
    checkingOut.map((i) => ({ type: 'checkout_completed', email: people[i]!.email, cart_id: `again-${i}` })),
  );
  await deps.runtime.engine.queue.idle(60_000);
  phase([['event of the awaited type, the contact with no waiting run', 'process-events', onQueue('events')]]);

  console.log(`Journeys: waiting for the timeouts (${TIMEOUT_MINUTES} minutes after the entries)…`);
  await until(
    'every run completed',
    (all) => all.every((r) => r.status === 'completed'),
    TIMEOUT_MINUTES * 60_000 + 120_000,
  );
  const sends = deps.meter.deliveries.filter(onQueue('workflow'));
  const perEmail = {
    emails: sends.reduce((n, d) => n + d.calls.ses, 0),
    deliveries: sends.length,
    dynamo: sends.reduce((n, d) => n + d.dynamo.requests, 0),
    sqs: sends.reduce((n, d) => n + d.calls.sqs, 0),
  };
  const isWake = (d: MeteredDelivery) => d.queue === 'journey' && d.kind === 'wake';
  const isDue = (d: MeteredDelivery) => d.queue === 'journey' && d.kind === 'due';
  phase([
    [
      'transition: the timeout, on_timeout into the send step (its execution)',
      'advance-runs',
      (d) => isDue(d) && writes(d),
    ],
    ['a timeout its run no longer waits for (the event won): stale', 'advance-runs', (d) => isDue(d) && !writes(d)],
    ["the send step's e-mail, its run woken when it ended", 'execute-workflow', onQueue('workflow')],
    ["the reminders' SES status notifications (Send, Delivery)", 'ses-status', onQueue('ses-status')],
    ['transition: the send ended, to the end (lock released)', 'advance-runs', (d) => isWake(d) && writes(d)],
    ['a wake its run has moved past (a repeated wake): stale', 'advance-runs', (d) => isWake(d) && !writes(d)],
  ]);
  return { date: new Date().toISOString().slice(0, 10), contacts, rows, perEmail };
}

/** A delivery that wrote a transaction (a transition), as against one that found its message stale. */
const writes = (d: MeteredDelivery) => (d.dynamo.by_command['TransactWriteItemsCommand'] ?? 0) > 0;

/**
 * Means over the first deliveries of the messages (a redelivery repeats work the first did or found done: counted
 * apart, its cost not mixed in).
 */
function figuresOf(work: string, fn: string, all: readonly MeteredDelivery[]): WorkFigures {
  const deliveries = all.filter((d) => d.receiveCount === 1);
  const n = deliveries.length || 1;
  const byCommand: Record<string, number> = {};
  let dynamo = 0;
  let maxDynamo = 0;
  let maxMessages = 0;
  let maxSes = 0;
  const calls = { sqs: 0, schedules: 0, ses: 0 };
  for (const d of deliveries) {
    dynamo += d.dynamo.requests;
    maxDynamo = Math.max(maxDynamo, d.dynamo.requests);
    maxMessages = Math.max(maxMessages, d.calls.sqs + d.calls.schedules);
    maxSes = Math.max(maxSes, d.calls.ses);
    for (const [command, count] of Object.entries(d.dynamo.by_command))
      byCommand[command] = (byCommand[command] ?? 0) + count;
    calls.sqs += d.calls.sqs;
    calls.schedules += d.calls.schedules;
    calls.ses += d.calls.ses;
  }
  const mean = (x: number) => Math.round((x / n) * 100) / 100;
  return {
    work,
    fn,
    deliveries: deliveries.length,
    redeliveries: all.length - deliveries.length,
    dynamo: mean(dynamo),
    byCommand: Object.fromEntries(Object.entries(byCommand).map(([c, x]) => [c, mean(x)])),
    sqs: mean(calls.sqs),
    schedules: mean(calls.schedules),
    ses: mean(calls.ses),
    maxDynamo,
    maxMessages,
    maxSes,
  };
}

/**
 * The journeys' request budgets, each at the costliest single run of its function (a budget holds for every
 * delivery, not on average): a step transition (every run of advance-runs, stale ones included) ≤ 2 DynamoDB + 1 SQS
 * or Scheduler call; an event, whether it enters a run, resumes one or meets none, within processing's ≤ 5 DynamoDB
 * and one SQS send or Scheduler call for the run it enters or resumes (one at most here: every wait is under 15
 * minutes, so no timeout's schedule is released); the send step's e-mail within the executor's ≤ 5 DynamoDB + 1 SES.
 * A budget whose function ran no message fails: nothing was measured.
 */
export function journeyBudgets(run: Pick<JourneysBenchRun, 'rows'>): Budget[] {
  const budget = (
    name: string,
    fn: string,
    limits: { dynamo: number; other: number },
    other: { label: string; of: (r: WorkFigures) => number },
  ): Budget => {
    const rows = run.rows.filter((r) => r.fn === fn && r.deliveries > 0);
    const over = rows.filter((r) => r.maxDynamo > limits.dynamo || other.of(r) > limits.other);
    const maxDynamo = Math.max(0, ...rows.map((r) => r.maxDynamo));
    const maxOther = Math.max(0, ...rows.map(other.of));
    return {
      name,
      measured: rows.length > 0 ? `${maxDynamo} + ${maxOther}` : 'no delivery',
      limit: `≤ ${limits.dynamo} + ${limits.other}`,
      pass: rows.length > 0 && over.length === 0,
      detail:
        rows.length === 0
          ? `no first delivery of ${fn} was measured`
          : over
              .map(
                (r) => `${r.work}: ${r.maxDynamo} + ${other.of(r)} ${other.label} (mean ${commandsText(r.byCommand)})`,
              )
              .join('; '),
    };
  };
  const messages = { label: 'SQS/Scheduler', of: (r: WorkFigures) => r.maxMessages };
  return [
    budget(
      'a step transition: DynamoDB requests + SQS/Scheduler calls, most in one run of advance-runs',
      'advance-runs',
      { dynamo: 2, other: 1 },
      messages,
    ),
    budget(
      'an event entering, resuming or meeting no run: DynamoDB requests + SQS/Scheduler calls, most in one run of process-events',
      'process-events',
      { dynamo: 5, other: 1 },
      messages,
    ),
    budget(
      "the send step's e-mail: DynamoDB requests + SES sends, most in one run of execute-workflow",
      'execute-workflow',
      { dynamo: 5, other: 1 },
      { label: 'SES', of: (r) => r.maxSes },
    ),
  ];
}

const budgetLine = (b: Budget) =>
  `${b.pass ? 'PASS' : 'FAIL'}  ${b.name}: ${b.measured} (budget ${b.limit})${b.pass ? '' : ` — ${b.detail}`}`;

const runsOf = scanJourneyRuns;

const commandsText = (byCommand: Record<string, number>) =>
  Object.entries(byCommand)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([command, n]) => `${command.replace(/Command$/, '')} ${n}`)
    .join(', ');

export function printJourneys(run: JourneysBenchRun): void {
  console.table(
    run.rows.map((r) => ({
      work: r.work,
      fn: r.fn,
      deliveries: r.deliveries,
      again: r.redeliveries,
      dynamo: r.dynamo,
      max: r.maxDynamo,
      commands: commandsText(r.byCommand),
      sqs: r.sqs,
      schedules: r.schedules,
      ses: r.ses,
    })),
  );
  for (const b of journeyBudgets(run)) console.log(budgetLine(b));
}

export const JOURNEYS_START = '<!-- journeys:begin -->';
export const JOURNEYS_END = '<!-- journeys:end -->';
export const JOURNEYS_TITLE = '## Journeys: requests per transition and per awaited event';

export function journeysMarkdown(run: JourneysBenchRun): string {
  const e = run.perEmail;
  const per = (x: number) => (e.emails ? Math.round((x / e.emails) * 100) / 100 : 0);
  const rows = run.rows.map(
    (r) =>
      `| ${r.work} | ${r.fn} | ${r.deliveries} (+${r.redeliveries}) | ${r.dynamo} (${commandsText(r.byCommand)}) | ${r.maxDynamo} | ${r.sqs} | ${r.schedules} | ${r.ses} |`,
  );
  const budgets = journeyBudgets(run).map(
    (b) => `| ${b.name} | ${b.measured} | ${b.limit} | ${b.pass ? 'PASS' : `FAIL (${b.detail})`} |`,
  );
  return `${JOURNEYS_START}
Written by \`npm run bench\` (part \`BENCH_ONLY=journeys\`, scripts/bench/journeys.ts) on ${run.date}.

A growth client with ${run.contacts} contacts publishes the cart journey (\`cart_abandoned\` keyed by \`cart_id\` →
\`wait_for_event checkout_completed\` with \`match_key\`, ${TIMEOUT_MINUTES}-minute timeout → a reminder), then one phase at a time:
every contact abandons a cart, half check out, the other half and then the first half send a checkout that meets no
waiting run of theirs, and the rest time out. Each row is one kind of work, its requests per first delivery of its
queue function's message (mean; the costliest delivery beside it; redeliveries counted apart, in brackets), counted by
the engine meter: DynamoDB requests by command, SQS sends (a batch counts one), Scheduler calls, SES sends. Every wait
here is under 15 minutes, so its message is an SQS delay; a longer one takes a schedule instead of the send (and an
event that wins releases it: one Scheduler call more).

| work | function | deliveries (+ again) | DynamoDB per delivery | most | SQS | Scheduler | SES |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

The budgets hold for every run of a function (one first delivery), so each is checked at the costliest one: a step
transition — every run of advance-runs, a stale one included, whether or not its container has the journey's version
cached — ≤ 2 DynamoDB requests + 1 SQS send or Scheduler call; an event — entering a run, resuming one or meeting none
— within processing's ≤ 5 DynamoDB requests, + 1 SQS send or Scheduler call for the run it enters or resumes (one here;
a wait longer than 15 minutes adds the release of its timeout's schedule); the send step's e-mail within the
executor's ≤ 5 DynamoDB requests + 1 SES send.

| budget | measured (most in one run) | limit | |
|---|---|---|---|
${budgets.join('\n')}

The executor ran ${e.deliveries} messages for ${e.emails} reminders: ${per(e.dynamo)} DynamoDB requests and
${per(e.sqs)} SQS sends an e-mail over all of them (the 8 workflows' sends: "Engine" above). The messages beyond the
e-mails' own are the status path's (ses-status's SQS sends above: a Send notification that arrives before the
executor recorded the e-mail wakes its execution); each finds its execution ended and wakes the run again, in case the
first wake was lost, so more wakes reach advance-runs than runs end, the repeated ones stale.
${JOURNEYS_END}`;
}
