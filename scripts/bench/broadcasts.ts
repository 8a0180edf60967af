import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalRuntime } from '../../local/runtime.js';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { TABLE_KEYS } from '../../shared/adapters/dynamo/table-definition.js';
import type { RequestCounter } from '../../shared/adapters/dynamo/request-counter.js';
import { loadConfig } from '../../shared/config.js';
import { BROADCAST_RATE_BY_TIER } from '../../shared/public/broadcast-rules.js';
import type { BroadcastCrashRunReport } from '../chaos/broadcast-crash-run.js';
import type { EngineMeter, MeteredDelivery } from './engine-meter.js';
import type { Send } from './scenarios.js';

/**
 * The broadcasts' bench (`BENCH_ONLY=broadcasts`): one broadcast `now` to all subscribed contacts of a scale client
 * on the local runtime, through the API (create, schedule), paced at SES_MAX_SEND_RATE × BROADCAST_SHARE (the
 * runtime's configuration; the plan's rate caps it too). The contacts are imported over HTTP first (bulk, 1,000 rows a
 * request, a few requests at once), then counted from the broadcast's start on:
 * - the time to snapshot (schedule answered → the head's `recipients` known: every source shard written);
 * - the send rate held: e-mails a second the SES emulator received from the first to the last, against the pace;
 * - DynamoDB requests per recipient, all of them (HTTP, the broadcast engine, the executor, the status notifications,
 *   the streams' consumers), and per queue function from the engine meter — checked against BUDGET;
 * - exactly once: each contact's e-mails in the SES emulator (one each, none missing), each recipient's execution
 *   finished (none queued or claimed), the head `sent` with its totals.
 * Then the crash mid-broadcast (scripts/chaos/broadcast-crash-run.ts: its own `npm start` with DATA_DIR, SIGKILL at
 * 40 % mailed, restarted on the same data) at its own size, and its report beside.
 */
export interface BroadcastsBenchDeps {
  runtime: LocalRuntime;
  meter: EngineMeter;
  counter: RequestCounter;
  send: Send;
  newClient(): Promise<{ id: number; key: string }>;
  /** The crash run (scripts/chaos/broadcast-crash-run.ts), at `contacts`; absent: not run. */
  crashRun?: (contacts: number) => Promise<BroadcastCrashRunReport>;
}

/** DynamoDB requests a recipient may cost, all work included, and the broadcast engine's own share of them. */
export const BROADCAST_BUDGET = {
  /**
   * Everything from the schedule to the last status notification, per recipient: the snapshot's page (≈ 5 requests
   * for 98), the pacer's passes (≈ 20 requests for up to 200), the executor's send (≈ 5), the Send and Delivery
   * notifications (≈ 3 each) and the streams' consumers (day counters, webhook facts) on each change.
   */
  total: 16,
  /** The broadcast queue's work (start, snapshot pages, pacer passes) per recipient. */
  engine: 0.5,
  /** The executor's per e-mail sent. */
  executor: 6,
} as const;
/** Audiences from which the engine's own budget applies (smaller ones leave the snapshot's pages part-empty). */
export const ENGINE_BUDGET_FROM = 10_000;
/** The send rate held, as a share of the pace, the bench asks for. */
export const RATE_GOAL = 0.9;

export interface QueueCost {
  queue: string;
  /** First deliveries; a redelivery (the local queue's 5 s visibility passed on a busy machine) counted apart. */
  deliveries: number;
  redeliveries: number;
  redeliveryDynamo: number;
  dynamo: number;
  sqs: number;
  ses: number;
}

export interface BroadcastsBenchRun {
  date: string;
  contacts: number;
  importS: number;
  sesRate: number;
  share: number;
  planRate: number;
  /** E-mails a second the broadcast is paced at: min(SES rate × share, the plan's). */
  pace: number;
  snapshotS: number;
  sentS: number;
  /** E-mails a second, the emulator's first to its last of this broadcast. */
  rate: number;
  requests: {
    total: number;
    /** Per recipient, redeliveries' requests left out. */
    perRecipient: number;
    byCommand: Record<string, number>;
    unscoped: number;
    /** Requests of redeliveries. */
    redone?: number;
  };
  queues: QueueCost[];
  engineRequestsPerRecipient: number;
  executorRequestsPerEmail: number;
  exactlyOnce: {
    emails: number;
    missing: number;
    duplicates: number;
    recipients: number;
    byStatus: Record<string, number>;
    head: string;
    totalsSent: number | null;
  };
  crash?: BroadcastCrashRunReport;
  crashContacts?: number;
  /** The crash run's failure, when it did not end with a report. */
  crashError?: string;
  budgets: { name: string; value: number; limit: number; pass: boolean }[];
}

const POLL_MS = 250;
const IMPORT_ROWS = 1_000;
const IMPORT_IN_FLIGHT = 4;

export async function runBroadcastsBench(
  deps: BroadcastsBenchDeps,
  options: { contacts: number; crashContacts: number },
): Promise<BroadcastsBenchRun> {
  const config = loadConfig();
  const sesRate = config.SES_MAX_SEND_RATE;
  const share = config.BROADCAST_SHARE;
  const planRate = BROADCAST_RATE_BY_TIER.scale;
  const pace = Math.min(planRate, sesRate * share);
  const client = await deps.newClient();
  const tag = `bcb${Date.now().toString(36)}`;
  const emailOf = (i: number) => `${tag}-${i}@bench.example`;

  console.log(`Broadcasts: importing ${options.contacts} contacts…`);
  const importStarted = performance.now();
  let nextChunk = 0;
  const chunks = Math.ceil(options.contacts / IMPORT_ROWS);
  await Promise.all(
    Array.from({ length: IMPORT_IN_FLIGHT }, async () => {
      for (let c = nextChunk++; c < chunks; c = nextChunk++) {
        const from = c * IMPORT_ROWS;
        const rows = Array.from({ length: Math.min(IMPORT_ROWS, options.contacts - from) }, (_, j) => ({
          email: emailOf(from + j),
        }));
        const res = await deps.send('POST', '/client/contacts/bulk', client.key, { json: { contacts: rows } });
        if (res.status !== 200 || res.body.data?.created !== rows.length)
          throw new Error(`bulk import answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    }),
  );
  const importS = (performance.now() - importStarted) / 1000;
  await deps.runtime.engine.queue.idle(600_000);
  console.log(`Broadcasts: imported in ${importS.toFixed(1)} s; pace ${pace}/s (SES ${sesRate}/s × ${share})`);

  deps.meter.reset();
  const before = { total: deps.counter.total, byCommand: deps.counter.snapshot() };
  const created = await deps.send('POST', '/client/broadcasts', client.key, {
    json: {
      name: 'Bench broadcast',
      definition: {
        audience: { all_subscribed: true },
        category: 'marketing',
        variants: [{ template_id: 1, subject: 'Bench' }],
        schedule: { mode: 'now' },
      },
    },
  });
  if (created.status !== 201) throw new Error(`POST /client/broadcasts answered ${created.status}`);
  const id = created.body.data.id as number;
  const mails = new MailTally(deps.runtime.sesUrl, tag, Date.now() - 1_000);
  const started = performance.now();
  const scheduled = await deps.send('POST', `/client/broadcasts/${id}/schedule`, client.key, {
    json: { draft_version: 1 },
  });
  if (scheduled.status !== 200) throw new Error(`schedule answered ${scheduled.status}`);

  // Until sent: the head read every POLL_MS, the SES emulator's new mails with it.
  // Generous: a slow machine sends below the pace, and the part reports that rather than giving up early.
  const deadline = started + (options.contacts / pace) * 3_000 + 600_000;
  let snapshotS: number | undefined;
  let head: { status: string; recipients: number | null; totals?: { sent?: number } } | undefined;
  let lastLog = performance.now();
  for (;;) {
    const read = await deps.send('GET', `/client/broadcasts/${id}`, client.key, {});
    // A read that failed (a slow machine's timeout) keeps the last head.
    if (read.status === 200) head = read.body.data;
    await mails.poll();
    if (snapshotS === undefined && head?.recipients != null) snapshotS = (performance.now() - started) / 1000;
    if (head?.status === 'sent' && mails.emails >= options.contacts) break;
    // The head says sent and the SES store has shown nothing new for a while: what is missing is not coming (the
    // exactly-once check below then says so, with the recipients' own statuses), so the part ends and is written.
    if (head?.status === 'sent' && mails.quietFor() > STALL_MS) {
      const unseen = Array.from({ length: options.contacts }, (_, i) => emailOf(i)).filter((a) => !mails.saw(a));
      console.log(
        `  the SES store shows ${mails.emails} of ${options.contacts} and nothing new for ${STALL_MS / 1000} s; ` +
          `not seen: ${unseen.slice(0, 10).join(', ')}${unseen.length > 10 ? ', …' : ''}`,
      );
      break;
    }
    if (performance.now() > deadline)
      throw new Error(`broadcast not sent in time: ${JSON.stringify(head)}, ${mails.emails} mailed`);
    if (performance.now() - lastLog > 10_000) {
      console.log(
        `  t+${((performance.now() - started) / 1000).toFixed(0)} s: ${head?.status}, ${mails.emails} mailed`,
      );
      lastLog = performance.now();
    }
    await sleep(POLL_MS);
  }
  const sentS = (performance.now() - started) / 1000;
  // The status notifications come a second after each send (delayed messages `idle` does not wait for).
  const queue = deps.runtime.engine.queue;
  const drainUntil = performance.now() + 120_000;
  do {
    await queue.idle(120_000);
    if (queue.depth('ses-status') > 0) await sleep(POLL_MS);
  } while (queue.depth('ses-status') > 0 && performance.now() < drainUntil);
  await sleep(2_000);
  await queue.idle(120_000);
  await mails.poll();
  const read = await deps.send('GET', `/client/broadcasts/${id}`, client.key, {});
  head = read.body.data;

  const total = deps.counter.total - before.total;
  const byCommand = Object.fromEntries(
    Object.entries(deps.counter.snapshot())
      .map(([c, n]) => [c, n - (before.byCommand[c] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
  const queues = costsByQueue(deps.meter.deliveries);
  const scoped = queues.reduce((n, q) => n + q.dynamo + q.redeliveryDynamo, 0);
  // The budget counts each message's first delivery: a redelivery repeats work on a machine too busy to answer
  // within the visibility timeout (reported beside).
  const redone = queues.reduce((n, q) => n + q.redeliveryDynamo, 0);
  const recipients = await recipientStatuses(deps.runtime, client.id, id);
  const per = (x: number, n = options.contacts) => Math.round((x / Math.max(1, n)) * 100) / 100;
  const engineQueue = queues.find((q) => q.queue === 'broadcast');
  const workflow = queues.find((q) => q.queue === 'workflow');
  const run: BroadcastsBenchRun = {
    date: new Date().toISOString().slice(0, 10),
    contacts: options.contacts,
    importS,
    sesRate,
    share,
    planRate,
    pace,
    snapshotS: snapshotS ?? sentS,
    sentS,
    rate: mails.rate(),
    requests: { total, perRecipient: per(total - redone), byCommand, unscoped: total - scoped, redone },
    queues,
    engineRequestsPerRecipient: per(engineQueue?.dynamo ?? 0),
    executorRequestsPerEmail: per(workflow?.dynamo ?? 0, mails.emails),
    exactlyOnce: {
      emails: mails.emails,
      missing: options.contacts - mails.contacts,
      duplicates: mails.duplicates,
      recipients: recipients.total,
      byStatus: recipients.byStatus,
      head: head?.status ?? 'absent',
      totalsSent: head?.totals?.sent ?? null,
    },
    budgets: [],
  };
  run.budgets = budgetsOf(run);
  if (options.crashContacts > 0 && deps.crashRun) {
    // The broadcast's own figures first: a crash run that cannot finish (a restart too slow on a busy machine) fails
    // the part without losing them.
    printBroadcasts(run);
    console.log(`Broadcasts: the crash run at ${options.crashContacts} contacts…`);
    run.crashContacts = options.crashContacts;
    try {
      run.crash = await deps.crashRun(options.crashContacts);
    } catch (error) {
      run.crashError = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      run.budgets.push({ name: `crash run: ${run.crashError}`, value: 0, limit: 1, pass: false });
      return run;
    }
    run.budgets.push({
      name: 'crash run: every recipient sent exactly once',
      value: run.crash.clean ? 1 : 0,
      limit: 1,
      pass: run.crash.clean,
    });
  }
  return run;
}

/** The checks that fail the part: requests within the budget, the rate held, every recipient sent exactly once. */
export function budgetsOf(run: BroadcastsBenchRun): BroadcastsBenchRun['budgets'] {
  const e = run.exactlyOnce;
  const finished = Object.entries(e.byStatus)
    .filter(([s]) => s !== '1' && s !== '2')
    .reduce((n, [, c]) => n + c, 0);
  return [
    {
      name: 'DynamoDB requests per recipient, all work',
      value: run.requests.perRecipient,
      limit: BROADCAST_BUDGET.total,
      pass: run.requests.perRecipient <= BROADCAST_BUDGET.total,
    },
    {
      // Below ENGINE_BUDGET_FROM recipients the shards' pages and the pacer's passes are not full: reported only.
      name: `broadcast engine (start, snapshot, pacer) per recipient${run.contacts < ENGINE_BUDGET_FROM ? ' (checked from 10,000)' : ''}`,
      value: run.engineRequestsPerRecipient,
      limit: BROADCAST_BUDGET.engine,
      pass: run.contacts < ENGINE_BUDGET_FROM || run.engineRequestsPerRecipient <= BROADCAST_BUDGET.engine,
    },
    {
      name: 'executor per e-mail',
      value: run.executorRequestsPerEmail,
      limit: BROADCAST_BUDGET.executor,
      pass: run.executorRequestsPerEmail <= BROADCAST_BUDGET.executor,
    },
    {
      name: `send rate held, share of the pace (goal ≥ ${RATE_GOAL})`,
      value: Math.round((run.rate / run.pace) * 100) / 100,
      limit: RATE_GOAL,
      pass: run.rate >= RATE_GOAL * run.pace,
    },
    {
      name: 'exactly once: one e-mail a contact, every recipient finished, head sent',
      value: e.emails,
      limit: run.contacts,
      pass:
        e.emails === run.contacts &&
        e.missing === 0 &&
        e.duplicates === 0 &&
        e.recipients === run.contacts &&
        finished === run.contacts &&
        e.head === 'sent',
    },
  ];
}

function costsByQueue(deliveries: readonly MeteredDelivery[]): QueueCost[] {
  const byQueue = new Map<string, QueueCost>();
  for (const d of deliveries) {
    const q = byQueue.get(d.queue) ?? {
      queue: d.queue,
      deliveries: 0,
      redeliveries: 0,
      redeliveryDynamo: 0,
      dynamo: 0,
      sqs: 0,
      ses: 0,
    };
    if (d.receiveCount > 1) {
      q.redeliveries += 1;
      q.redeliveryDynamo += d.dynamo.requests;
      byQueue.set(d.queue, q);
      continue;
    }
    q.deliveries += 1;
    q.dynamo += d.dynamo.requests;
    q.sqs += d.calls.sqs;
    q.ses += d.calls.ses;
    byQueue.set(d.queue, q);
  }
  return [...byQueue.values()].sort((a, b) => a.queue.localeCompare(b.queue));
}

/** Every recipient of the broadcast by execution status, from its listing (16 gsi1 partitions), on a client of its own. */
async function recipientStatuses(
  runtime: LocalRuntime,
  clientId: number,
  broadcastId: number,
): Promise<{ total: number; byStatus: Record<string, number> }> {
  const db = createDocumentClient({
    region: process.env['AWS_REGION'] ?? 'us-east-1',
    endpoint: runtime.dynamoEndpoint,
  });
  const byStatus: Record<string, number> = {};
  let total = 0;
  await Promise.all(
    Array.from({ length: keys.broadcastRecipientShards }, async (_, shard) => {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: runtime.tableName,
            IndexName: TABLE_KEYS.gsi1.name,
            KeyConditionExpression: 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.broadcastRecipientsPk(clientId, broadcastId, shard) },
            ProjectionExpression: '#s',
            ExpressionAttributeNames: { '#s': 'status' },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const item of page.Items ?? []) {
          const s = String(item['status']);
          byStatus[s] = (byStatus[s] ?? 0) + 1;
          total += 1;
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
  return { total, byStatus };
}

/**
 * The bench's mails in aws-ses-v2-local (`/store?since=` epoch seconds, read incrementally): each message once, per
 * recipient address, and when each was first seen (the send rate, to the poll's resolution).
 */
/**
 * How long the SES store may show nothing new after the head says sent before the part stops waiting: longer than the
 * longest throttle backoff (shared/domain/executions/throttle-backoff.ts: 5 minutes) and its jitter.
 */
const STALL_MS = 420_000;

class MailTally {
  private readonly seen = new Set<string>();
  private readonly perAddress = new Map<string, number>();
  private since: number;
  private first?: { at: number; n: number };
  private last?: { at: number; n: number };
  private readonly createdAt = performance.now();

  constructor(
    private readonly sesUrl: string,
    private readonly tag: string,
    sinceMs: number,
  ) {
    this.since = Math.floor(sinceMs / 1000);
  }

  get emails(): number {
    return this.seen.size;
  }
  get contacts(): number {
    return this.perAddress.size;
  }
  get duplicates(): number {
    return [...this.perAddress.values()].filter((n) => n > 1).length;
  }

  async poll(): Promise<void> {
    const res = await fetch(`${this.sesUrl}/store?since=${this.since}`);
    if (!res.ok) throw new Error(`SES store answered ${res.status}`);
    const { emails } = (await res.json()) as {
      emails: { messageId: string; at: number; destination: { to: string[] } }[];
    };
    const before = this.seen.size;
    for (const mail of emails) {
      this.since = Math.max(this.since, mail.at);
      const mine = mail.destination.to.filter((to) => to.startsWith(`${this.tag}-`));
      if (mine.length === 0) continue;
      // A mail is its id with its recipients and time, not its id alone: the tally must not rest on the provider's
      // ids never repeating (aws-ses-v2-local's own repeated ~5.6 times in 100,000 before local/ses.ts replaced them).
      const identity = `${mail.messageId}|${mine.join(',')}|${mail.at}`;
      if (this.seen.has(identity)) continue;
      this.seen.add(identity);
      for (const to of mine) this.perAddress.set(to, (this.perAddress.get(to) ?? 0) + 1);
    }
    if (this.seen.size > before) {
      const now = performance.now();
      this.first ??= { at: now, n: this.seen.size };
      this.last = { at: now, n: this.seen.size };
    }
  }

  /** Whether an e-mail to `address` was seen. */
  saw(address: string): boolean {
    return this.perAddress.has(address);
  }

  /** Milliseconds since a poll last saw a new e-mail (since the tally began, if none yet). */
  quietFor(): number {
    return performance.now() - (this.last?.at ?? this.createdAt);
  }

  /** E-mails a second between the first poll that saw some and the last that saw more. */
  rate(): number {
    if (!this.first || !this.last || this.last.at <= this.first.at) return 0;
    return (this.last.n - this.first.n) / ((this.last.at - this.first.at) / 1000);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const r1 = (x: number) => (Math.round(x * 10) / 10).toString();

export function printBroadcasts(run: BroadcastsBenchRun): void {
  console.log(
    `${run.contacts} recipients: snapshot ${r1(run.snapshotS)} s, sent in ${r1(run.sentS)} s at ${r1(run.rate)}/s ` +
      `(pace ${run.pace}/s); ${run.requests.perRecipient} DynamoDB requests a recipient`,
  );
  console.table(run.queues);
  console.table(run.budgets);
  if (run.crash) console.log(JSON.stringify(run.crash, null, 2));
}

export const BROADCASTS_START = '<!-- broadcasts:begin -->';
export const BROADCASTS_END = '<!-- broadcasts:end -->';
export const BROADCASTS_TITLE = '## Broadcasts: a broadcast to every contact, and a crash in the middle of one';

const commandsText = (byCommand: Record<string, number>, n: number) =>
  Object.entries(byCommand)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([command, x]) => `${command.replace(/Command$/, '')} ${Math.round((x / Math.max(1, n)) * 100) / 100}`)
    .join(', ');

export function broadcastsMarkdown(run: BroadcastsBenchRun): string {
  const e = run.exactlyOnce;
  const per = (x: number) => Math.round((x / Math.max(1, run.contacts)) * 100) / 100;
  const queueRows = run.queues.map(
    (q) =>
      `| ${q.queue} | ${q.deliveries} (+${q.redeliveries}) | ${q.dynamo} (+${q.redeliveryDynamo}) | ${per(q.dynamo)} | ${q.sqs} | ${q.ses} |`,
  );
  const budgetRows = run.budgets.map(
    (b) => `| ${b.name} | ${b.value} | ${b.limit} | ${b.pass ? 'met' : '**NOT met**'} |`,
  );
  const c = run.crash;
  const crash = c
    ? `
**The crash mid-broadcast** (\`npm run bench:crash -- --broadcast ${run.crashContacts}\`, scripts/chaos/broadcast-crash-run.ts:
its own \`npm start\` on a DATA_DIR, SIGKILL once ${c.kill ? `${c.kill.mailed} of ${c.contacts}` : 'never'} were in the SES journal,
started again on the same data): ${c.contacts} contacts imported (${c.imported} created), pace ${c.pace}/s. Killed at
${c.kill ? `${(c.kill.atMs / 1000).toFixed(1)} s, ${c.kill.mailed} mailed` : '—'}; restarted in ${c.timing.restartS ?? '—'} s
(${c.recoveredLine ?? 'no recovery line'}); sent ${c.timing.recoveryS ?? '—'} s after the restart, ${c.timing.totalS} s in all.
Head \`${c.head.status}\` (recipients ${c.head.total ?? '—'}); recipient executions ${c.recipients.total} for ${c.recipients.contacts} contacts
(by status ${JSON.stringify(c.recipients.byStatus)}), ${c.stranded} stranded, ${c.dueLeft} due entries left. The SES journal
(both lifetimes): **${c.emails} e-mails, ${c.missing} contacts missing, ${c.duplicates} mailed twice** — ${c.clean ? '**exactly once**' : '**NOT clean**'}.
Rate ${c.rate.before.toFixed(1)}/s before the kill, ${c.rate.after?.toFixed(1) ?? '—'}/s after (peak ${c.rate.peakAfter?.toFixed(1) ?? '—'}/s
over 5 s; at most 1.1 × the pace).
`
    : run.crashError
      ? `\n**The crash run at ${run.crashContacts} contacts did not end with a report:** ${run.crashError}\n`
      : '\nThe crash run was not part of this run (`BROADCAST_CRASH_CONTACTS=0`).\n';
  return `${BROADCASTS_START}
Written by \`npm run bench\` (part \`BENCH_ONLY=broadcasts\`, scripts/bench/broadcasts.ts) on ${run.date}.

A scale client imports ${run.contacts} contacts (bulk over HTTP: ${r1(run.importS)} s), then creates one broadcast
\`now\` to all subscribed and schedules it through the API. SES_MAX_SEND_RATE ${run.sesRate}, broadcast share ${run.share}: the
account's broadcasts may send ${r1(run.sesRate * run.share)}/s, the scale plan ${run.planRate}/s, so the pace is **${r1(run.pace)}/s**.

| figure | value |
|---|---|
| time to snapshot (schedule answered → every shard written) | ${r1(run.snapshotS)} s (${Math.round(run.contacts / Math.max(0.001, run.snapshotS))} recipients/s) |
| schedule → \`sent\` | ${r1(run.sentS)} s |
| send rate held (SES emulator, first to last e-mail) | **${r1(run.rate)}/s** of ${r1(run.pace)}/s paced = ${(run.rate / run.pace).toFixed(2)}× (goal ≥ ${RATE_GOAL}×) |
| DynamoDB requests per recipient, all work (redeliveries' ${run.requests.redone ?? 0} left out) | **${run.requests.perRecipient}** (${commandsText(run.requests.byCommand, run.contacts)}) |
| … of which no queue message's (HTTP, streams' consumers) | ${per(run.requests.unscoped)} |
| e-mails in the SES emulator / contacts missing / mailed twice | ${e.emails} / ${e.missing} / ${e.duplicates} |
| recipient executions by status (3 finished) / head / totals sent | ${e.recipients}: ${JSON.stringify(e.byStatus)} / \`${e.head}\` / ${e.totalsSent ?? '—'} |

Per queue function, first deliveries (redeliveries and their requests in brackets: the local queue's 5 s visibility
passed on a busy machine), from the schedule until the last status notification:

| queue | deliveries | DynamoDB | per recipient | SQS | SES |
|---|---|---|---|---|---|
${queueRows.join('\n')}

Budgets (the part fails when one is not met):

| check | value | budget | |
|---|---|---|---|
${budgetRows.join('\n')}
${crash}${BROADCASTS_END}`;
}
