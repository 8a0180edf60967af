import { scanJourneyRuns } from './journey-runs.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { TABLE_KEYS } from '../../shared/adapters/dynamo/table-definition.js';
import { seededRandom } from '../../shared/adapters/faults/seeded-random.js';
import type { RunRecord } from '../../shared/domain/runs/run-record.js';
import { SesJournal } from '../../local/engine/ses-journal.js';
import { executionFigures, politeFetch, sendsPerRecipient } from './crash-run.js';
import { startLocalProcess, type LocalProcess } from './local-process.js';

/**
 * The crash run with journeys: N contacts each abandon a cart, entering a published cart journey (trigger
 * `cart_abandoned` keyed by `cart_id` → wait_for_event `checkout_completed` with match_key → on timeout one reminder;
 * on the event, the end), built through the journeys API as a client builds it. Half the contacts check out around
 * their run's timeout (due_at ± `checkoutSpreadMs`, read from the run), so event and timeout race; the whole runtime is
 * killed with SIGKILL once `killAfter` carts were accepted and started again on the same DATA_DIR. It reports, from
 * the table and the local SES journal, what a clean run means: every run ended, none left active or waiting, no
 * RUNDUE entry left, every run left its wait exactly one way, one reminder per timed-out run and no other mail.
 */
export interface JourneyCrashRunOptions {
  contacts: number;
  /** Kill once this many carts were accepted; omit for a run without a crash. */
  killAfter?: number;
  /** The wait's timeout (the shortest a journey takes: 1 minute). */
  timeoutMinutes?: number;
  /** Each checkout is sent at its run's timeout ± this (uniform). */
  checkoutSpreadMs?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** FAULTS for both starts (docs/development.md "Fault injection"). */
  faults?: string;
  faultsSeed?: number;
  /** Extra environment of the runtime. */
  env?: Record<string, string>;
  /** Seeds when each checkout comes within the spread (the same draws on every run). */
  seed?: number;
  /** Give up waiting for every run to end this long after the last timeout. */
  settleTimeoutMs?: number;
  log?: (line: string) => void;
  /** Leave DATA_DIR in place (its path is logged), to look into a run that did not end clean. */
  keepData?: boolean;
}

export interface JourneyCrashRunReport {
  contacts: number;
  /** Carts answered 2xx over all requests and re-sends. */
  accepted: number;
  runs: { total: number; byStatus: Record<string, number> };
  /** Runs per contact beyond one (one cart each: 0). */
  extraRuns: number;
  /** How each run left its wait (`on_event`, `on_timeout`); `other` counts runs that left it no way or twice. */
  waysOut: { on_event: number; on_timeout: number; other: number };
  checkoutsSent: number;
  /** Runs that took on_event without their contact checking out (0). */
  resumedWithoutCheckout: number;
  /** gsi3 RUNDUE entries left once every run ended (0). */
  runDueLeft: number;
  /** E-mails SES accepted, over both lifetimes. */
  emails: number;
  /** Timed-out runs whose contact got no reminder (0). */
  remindersMissing: number;
  /** Contacts mailed whose run did not time out (0). */
  remindersUnexpected: number;
  /** Recipients SES accepted more than one e-mail for (0). */
  duplicateEmails: number;
  executions: { total: number; byStatus: Record<string, number> };
  /** From the second start's spawn (the first request without a crash) to the last run ended (ms). */
  recoveryMs: number;
  restartMs?: number;
  recoveredLine?: string;
  clean: boolean;
}

const STEP = 'wait_checkout';

/** The cart journey as JSON, the shape POST /client/journeys takes. */
export const cartJourney = (timeoutMinutes: number) => ({
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: STEP,
  steps: [
    {
      id: STEP,
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: timeoutMinutes,
      on_event: null,
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});

export async function journeyCrashRun(options: JourneyCrashRunOptions): Promise<JourneyCrashRunReport> {
  const log = options.log ?? (() => {});
  const timeoutMinutes = options.timeoutMinutes ?? 1;
  const spreadMs = options.checkoutSpreadMs ?? 2_000;
  const concurrency = options.concurrency ?? 16;
  const random = seededRandom(options.seed ?? 1);
  const dataDir = mkdtempSync(join(tmpdir(), 'els-journey-crash-'));
  const env = {
    ...(options.faults ? { FAULTS: options.faults, FAULTS_SEED: String(options.faultsSeed ?? 1) } : {}),
    ...options.env,
  };
  let runtime: LocalProcess | undefined;
  try {
    runtime = await startLocalProcess({ dataDir, env });
    log(`started at ${runtime.baseUrl}`);
    const apiKey = runtime.apiKey;
    if (!apiKey) throw new Error('the first start printed no API key');
    const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
      politeFetch(`${runtime!.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        timeoutMs: 30_000,
      });

    // The journey, as a client writes it: created with its definition, then published.
    const created = await api('/client/journeys', {
      method: 'POST',
      body: { name: 'Cart reminder (crash run)', definition: cartJourney(timeoutMinutes) },
    });
    const draft = (await created.json()) as { data?: { id: number; draft_version: number }; errors?: unknown };
    if (created.status !== 201 || !draft.data)
      throw new Error(`POST /client/journeys answered ${created.status}: ${JSON.stringify(draft)}`);
    const published = await api(`/client/journeys/${draft.data.id}/publish`, {
      method: 'POST',
      body: { draft_version: draft.data.draft_version },
    });
    if (published.status !== 201)
      throw new Error(`publish answered ${published.status}: ${JSON.stringify(await published.json())}`);
    const journeyId = draft.data.id;
    log(`journey ${journeyId} published (timeout ${timeoutMinutes} min)`);

    const tag = Date.now().toString(36);
    const emailOf = (i: number) => `cart-${tag}-${i}@example.com`;
    const cartOf = (i: number) => `cart-${tag}-${i}`;
    // Every other contact checks out: half of them.
    const checksOut = new Set(Array.from({ length: options.contacts }, (_, i) => i).filter((i) => i % 2 === 0));
    const carts = Array.from({ length: options.contacts }, (_, i) => ({
      type: 'cart_abandoned',
      email: emailOf(i),
      auto_create_contact: true,
      cart_id: cartOf(i),
      idempotency_key: `cart-${tag}-${i}`,
    }));

    // The carts, with the kill landing while requests are in flight; then every unanswered one again with its key.
    const accepted = new Set<number>();
    let killed: Promise<void> | undefined;
    const lastFailure = new Map<string, string>();
    const postEvent = async (body: Record<string, unknown>): Promise<boolean> => {
      const key = String(body['idempotency_key']);
      try {
        const response = await api('/client/events', { method: 'POST', body });
        const text = await response.text();
        if (response.status >= 300) lastFailure.set(key, `${response.status} ${text.slice(0, 160)}`);
        return response.status < 300;
      } catch (error) {
        lastFailure.set(key, `no answer: ${(error as Error).name}`);
        return false; // no answer: the runtime died with the request in flight
      }
    };
    const started = Date.now();
    let next = 0;
    const first = runtime;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < carts.length && !killed) {
          const i = next++;
          if (!(await postEvent(carts[i]!))) continue;
          accepted.add(i);
          if (options.killAfter !== undefined && accepted.size >= options.killAfter && !killed) {
            log(`killing the runtime after ${accepted.size} carts accepted`);
            killed = first.kill();
          }
        }
      }),
    );
    let recoveryStart = started;
    let restartMs: number | undefined;
    if (killed) {
      await killed;
      recoveryStart = Date.now();
      runtime = await startLocalProcess({ dataDir, env });
      restartMs = Date.now() - recoveryStart;
      log(`restarted in ${restartMs} ms`);
    }
    for (let round = 0; round < 20 && accepted.size < carts.length; round += 1) {
      const missing = carts.map((_, i) => i).filter((i) => !accepted.has(i));
      log(`sending ${missing.length} carts not answered yet (round ${round + 1})`);
      let cursor = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (cursor < missing.length) {
            const i = missing[cursor++]!;
            if (await postEvent(carts[i]!)) accepted.add(i);
          }
        }),
      );
    }
    log(`carts accepted: ${accepted.size} of ${carts.length}`);

    // Each checkout at its run's timeout ± the spread: the run's due_at is read from the table as the run waits.
    const table = () => tableOf(runtime!);
    const indexOfCart = new Map(carts.map((c, i) => [c.cart_id, i]));
    const scheduled = new Set<number>();
    const checkouts: Promise<void>[] = [];
    let checkoutsSent = 0;
    const sendCheckout = async (i: number) => {
      const body = {
        type: 'checkout_completed',
        email: emailOf(i),
        cart_id: cartOf(i),
        idempotency_key: `checkout-${tag}-${i}`,
      };
      for (let attempt = 0; attempt < 60; attempt += 1) {
        if (await postEvent(body)) {
          checkoutsSent += 1;
          return;
        }
        await sleep(1_000);
      }
      log(`checkout ${i} never accepted: ${lastFailure.get(body.idempotency_key)}`);
    };
    const lastTimeoutBy = Date.now() + timeoutMinutes * 60_000 + 120_000;
    const settleUntil = lastTimeoutBy + (options.settleTimeoutMs ?? 180_000);
    let runs: RunRecord[] = [];
    let lastLog = 0;
    for (;;) {
      runs = await runsOf(table(), journeyId);
      for (const run of runs) {
        const i = run.key_value === undefined ? undefined : indexOfCart.get(run.key_value);
        if (i === undefined || !checksOut.has(i) || scheduled.has(i)) continue;
        const waiting = run.status === 'waiting' && run.step_id === STEP;
        if (!waiting && !run.path.some((p) => p.step === STEP)) continue;
        scheduled.add(i);
        // At the timeout ± the spread; a run seen only after it left the wait (the restart was slower than its
        // timeout) gets its checkout at once: a late checkout must change nothing.
        const at = waiting && run.due_at ? Date.parse(run.due_at) + (random() * 2 - 1) * spreadMs : Date.now();
        checkouts.push(sleep(Math.max(0, at - Date.now())).then(() => sendCheckout(i)));
      }
      const ended = runs.filter((r) => r.status !== 'active' && r.status !== 'waiting').length;
      const [queued = 0, executing = 0] = await Promise.all(['1', '2'].map((s) => executionTotal(runtime!, apiKey, s)));
      if (Date.now() - lastLog > 10_000) {
        log(`runs ${JSON.stringify({ total: runs.length, ended, checkouts: checkoutsSent, queued, executing })}`);
        lastLog = Date.now();
      }
      const allCheckouts = scheduled.size === [...checksOut].filter((i) => accepted.has(i)).length;
      if (
        (runs.length >= accepted.size && ended === runs.length && allCheckouts && queued + executing === 0) ||
        Date.now() > settleUntil
      )
        break;
      await sleep(1_000);
    }
    await Promise.all(checkouts);
    const recoveryMs = Date.now() - recoveryStart;

    // What the table and the SES journal say.
    runs = await runsOf(table(), journeyId);
    const runDueLeft = await runDueEntries(table());
    const open = runs.filter((r) => r.status === 'active' || r.status === 'waiting');
    if (open.length > 0) {
      const sample = open
        .slice(0, 5)
        .map(({ id, status, step_id, seq, wait, due_at }) => ({ id, status, step_id, seq, wait, due_at }));
      log(`runs not ended: ${JSON.stringify(sample)}`);
    }
    const byStatus: Record<string, number> = {};
    for (const run of runs) byStatus[run.status] = (byStatus[run.status] ?? 0) + 1;
    const waysOut = { on_event: 0, on_timeout: 0, other: 0 };
    const timedOut = new Set<string>();
    let resumedWithoutCheckout = 0;
    for (const run of runs) {
      const ways = run.path.filter((p) => p.step === STEP).map((p) => p.via);
      const i = run.key_value === undefined ? undefined : indexOfCart.get(run.key_value);
      if (ways.length === 1 && ways[0] === 'on_event') {
        waysOut.on_event += 1;
        if (i === undefined || !checksOut.has(i)) resumedWithoutCheckout += 1;
      } else if (ways.length === 1 && ways[0] === 'on_timeout') {
        waysOut.on_timeout += 1;
        if (i !== undefined) timedOut.add(emailOf(i));
      } else waysOut.other += 1;
    }
    const contactsWithRuns = new Set(runs.map((r) => r.contact_id));
    const emails = sendsPerRecipient(new SesJournal(dataDir));
    const remindersMissing = [...timedOut].filter((email) => !emails.has(email)).length;
    const remindersUnexpected = [...emails.keys()].filter((email) => !timedOut.has(email)).length;
    const duplicateEmails = [...emails.values()].filter((n) => n > 1).length;
    const executions = await executionFigures(runtime.baseUrl, apiKey);
    const recoveredLine = /Recovered after restart: .*/.exec(runtime.output())?.[0];
    const report: JourneyCrashRunReport = {
      contacts: options.contacts,
      accepted: accepted.size,
      runs: { total: runs.length, byStatus },
      extraRuns: runs.length - contactsWithRuns.size,
      waysOut,
      checkoutsSent,
      resumedWithoutCheckout,
      runDueLeft,
      emails: [...emails.values()].reduce((a, b) => a + b, 0),
      remindersMissing,
      remindersUnexpected,
      duplicateEmails,
      executions,
      recoveryMs,
      ...(restartMs !== undefined ? { restartMs } : {}),
      ...(recoveredLine ? { recoveredLine } : {}),
      clean:
        accepted.size === options.contacts &&
        runs.length === options.contacts &&
        runs.length - contactsWithRuns.size === 0 &&
        (byStatus['active'] ?? 0) + (byStatus['waiting'] ?? 0) === 0 &&
        waysOut.other === 0 &&
        waysOut.on_event + waysOut.on_timeout === options.contacts &&
        resumedWithoutCheckout === 0 &&
        runDueLeft === 0 &&
        remindersMissing === 0 &&
        remindersUnexpected === 0 &&
        duplicateEmails === 0 &&
        executions.total === waysOut.on_timeout &&
        (executions.byStatus['3'] ?? 0) === waysOut.on_timeout,
    };
    log(`report ${JSON.stringify(report)}`);
    return report;
  } finally {
    await runtime?.stop().catch(() => undefined);
    if (options.keepData) log(`data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface TableHandle {
  db: DynamoDBDocumentClient;
  tableName: string;
}

const tables = new WeakMap<LocalProcess, TableHandle>();

/** The runtime's own DynamoDB Local and table, as its start line names them. */
function tableOf(runtime: LocalProcess): TableHandle {
  const known = tables.get(runtime);
  if (known) return known;
  const line = /DynamoDB Local\s+(\S+) \(table ([^,)]+)/.exec(runtime.output());
  if (!line) throw new Error(`the runtime named no DynamoDB Local:\n${runtime.output()}`);
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: line[1]!,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const handle = { db, tableName: line[2]! };
  tables.set(runtime, handle);
  return handle;
}

const runsOf = ({ db, tableName }: TableHandle, journeyId: number): Promise<RunRecord[]> =>
  scanJourneyRuns(db, tableName, journeyId);

/** The stuck-run sweep's view: gsi3 entries of runs still due, over its shards. */
async function runDueEntries({ db, tableName }: TableHandle): Promise<number> {
  const counts = await Promise.all(
    Array.from({ length: keys.runDueShards }, async (_, shard) => {
      let n = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: TABLE_KEYS.gsi3.name,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi3.partitionKey },
            ExpressionAttributeValues: { ':pk': keys.runDuePk(shard) },
            Select: 'COUNT',
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        n += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      return n;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

async function executionTotal(runtime: LocalProcess, apiKey: string, status: string): Promise<number> {
  try {
    const response = await politeFetch(`${runtime.baseUrl}/client/executions?per_page=1&status=${status}`, {
      headers: { authorization: `Bearer ${apiKey}` },
      timeoutMs: 30_000,
    });
    return ((await response.json()) as { meta?: { total?: number } }).meta?.total ?? 0;
  } catch {
    return Number.NaN;
  }
}
