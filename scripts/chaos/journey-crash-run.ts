import { scanJourneyRuns } from './journey-runs.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { TABLE_KEYS } from '../../shared/adapters/dynamo/table-definition.js';
import { seededRandom } from '../../shared/adapters/faults/seeded-random.js';
import type { EventRecord } from '../../shared/domain/events/event-record.js';
import type { RunRecord } from '../../shared/domain/runs/run-record.js';
import { SesJournal } from '../../local/engine/ses-journal.js';
import { executionFigures, politeFetch, sendsPerRecipient } from './crash-run.js';
import { startLocalProcess, type LocalProcess } from './local-process.js';

/**
 * The crash run with journeys: N contacts each abandon a cart, entering a published cart journey (trigger
 * `cart_abandoned` keyed by `cart_id` → wait_for_event `checkout_completed` with match_key → on timeout one reminder;
 * on the event, the end), built through the journeys API as a client builds it.
 *
 * The carts are paced (at most `cartsPerSecond`, and at most `cartsAhead` carts ahead of the runs come to wait)
 * rather than sent at once, so the events queue keeps up and a checkout meets its run while it waits: sent all at
 * once, the checkouts queue behind the carts and every one of them comes after its run's timeout, which leaves the
 * race unexercised (a 1,000-cart burst did exactly that). Three groups of contacts, by index:
 * - `early` (every even one, half): checks out as soon as its run is seen waiting, a whole timeout ahead of it — the
 *   event is meant to win, and the timeout's message, already on its way, must then find the run moved on;
 * - `edge` (i mod 10 = 1, a tenth): checks out at its run's timeout ± `checkoutSpreadMs` — either may win, one only;
 * - `none` (the other 40 %): never checks out — the timeout must win and mail exactly one reminder.
 * The whole runtime is killed with SIGKILL once `killAfter` carts were accepted AND runs have already left the wait by
 * both ways (`killAfterWays` each), so the kill lands with carts, checkouts and timeouts all in flight; it is started
 * again on the same DATA_DIR and every unanswered request is sent again with its idempotency key.
 *
 * It reports, from the table (runs, events), the local SES journal and the API, what a clean run means: one run per
 * contact, every run ended and left its wait exactly one way, and that way agrees with the event side (on_event ⇔ the
 * contact's checkout resumed that run); a reminder exactly once per timed-out run and no mail otherwise; every event
 * processed; no RUNDUE entry and no run counted "waiting now" on the journey's gauge; every execution completed.
 */
export interface JourneyCrashRunOptions {
  contacts: number;
  /** Kill once this many carts were accepted (and `killAfterWays` runs left the wait each way); omit: no crash. */
  killAfter?: number;
  /** Runs that must have left the wait by each way before the kill (default contacts / 50, at least 1). */
  killAfterWays?: number;
  /** The wait's timeout in journey minutes (the shortest a journey takes: 1). */
  timeoutMinutes?: number;
  /**
   * Milliseconds one journey minute lasts in the runtime (LOCAL_JOURNEY_MINUTE_MS, a local-runtime setting only);
   * absent: a real minute.
   */
  minuteMs?: number;
  /** Carts sent a second at most, in order (default 10). */
  cartsPerSecond?: number;
  /**
   * Carts accepted whose run has not yet come to wait, at most (default 30): the carts follow the engine's pace, so
   * the events queue stays short and a checkout reaches its run within its timeout however loaded the machine is.
   */
  cartsAhead?: number;
  /** POST /client/events requests in flight at once, checkouts served first (default 8). */
  concurrency?: number;
  /** The edge group checks out at its run's timeout ± this (uniform; default 2 s). */
  checkoutSpreadMs?: number;
  /** FAULTS for both starts (docs/development.md "Fault injection"). */
  faults?: string;
  faultsSeed?: number;
  /** Extra environment of the runtime. */
  env?: Record<string, string>;
  /** Seeds when each edge checkout comes within the spread (the same draws on every run). */
  seed?: number;
  /** Give up waiting for every run to end this long after the last cart was accepted (default 300 s). */
  settleTimeoutMs?: number;
  log?: (line: string) => void;
  /** Leave DATA_DIR in place (its path is logged), to look into a run that did not end clean. */
  keepData?: boolean;
}

type Group = 'early' | 'edge' | 'none';
type Ways = { on_event: number; on_timeout: number };

export interface JourneyCrashRunReport {
  contacts: number;
  /** Carts answered 2xx over all requests and re-sends. */
  accepted: number;
  /** HTTP requests the run sent to POST /client/events, answered or not. */
  requests: { carts: number; checkouts: number; unanswered: number; refused: Record<string, number> };
  /** Where the kill landed (absent without one). */
  kill?: {
    atMs: number;
    cartsAccepted: number;
    checkoutsSent: number;
    runsWaiting: number;
    /** Runs that had left the wait by each way. */
    ways: Ways;
  };
  runs: { total: number; byStatus: Record<string, number> };
  /** Runs per contact beyond one (one cart each: 0). */
  extraRuns: number;
  /** How each run left its wait; `other` counts runs that left it no way or twice (0). */
  waysOut: Ways & { other: number };
  /** Per group: contacts, checkouts sent, and the way their runs took. */
  race: Record<Group, { contacts: number; checkouts: number } & Ways>;
  checkoutsSent: number;
  /**
   * Runs whose way disagrees with the event side (0): on_event without its own contact's checkout having resumed it
   * (the event's `resumed_run_ids`), or on_timeout while its contact's checkout says it resumed it.
   */
  mismatched: number;
  /** Runs that took on_event without their contact checking out (0). */
  resumedWithoutCheckout: number;
  /** Events of the run (carts and checkouts) not processed at the end (0). */
  eventsUnprocessed: number;
  /** gsi3 RUNDUE entries left once every run ended (0). */
  runDueLeft: number;
  /** The journey's stats as the counters projection has them at the end: runs waiting now on any step (0), the wait's entries and ways. */
  stats: { waitingNow: number; entered: number; ways: Record<string, number> };
  /** E-mails SES accepted, over both lifetimes. */
  emails: number;
  /** Timed-out runs whose contact got no reminder (0). */
  remindersMissing: number;
  /** Contacts mailed whose run did not time out (0). */
  remindersUnexpected: number;
  /** Recipients SES accepted more than one e-mail for (0). */
  duplicateEmails: number;
  /** Every execution of the client by status, counted one by one (not the listing's bounded total). */
  executions: { total: number; byStatus: Record<string, number> };
  /** From the first cart to the last one accepted (ms). */
  cartsMs: number;
  /** From the second start's spawn (the first cart without a crash) to the last run ended (ms). */
  recoveryMs: number;
  restartMs?: number;
  /** From the first cart to the end of the checks (ms). */
  totalMs: number;
  recoveredLine?: string;
  /**
   * Faults injected by target (`calls` drawn on, `total` injected), over every lifetime that stopped cleanly — the
   * last one; a killed lifetime prints none. Absent without FAULTS.
   */
  faultsInjected?: Record<string, { calls: number; total: number; injected: Record<string, number> }>;
  clean: boolean;
}

const STEP = 'wait_checkout';

/** The issue's cart journey as JSON, the shape POST /client/journeys takes. */
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

const groupOf = (i: number): Group => (i % 2 === 0 ? 'early' : i % 10 === 1 ? 'edge' : 'none');

export async function journeyCrashRun(options: JourneyCrashRunOptions): Promise<JourneyCrashRunReport> {
  const log = options.log ?? (() => {});
  const timeoutMinutes = options.timeoutMinutes ?? 1;
  const minuteMs = options.minuteMs ?? 60_000;
  const spreadMs = options.checkoutSpreadMs ?? 2_000;
  const cartsPerSecond = options.cartsPerSecond ?? 10;
  const cartsAhead = options.cartsAhead ?? 30;
  const slots = new Slots(options.concurrency ?? 8);
  const killAfterWays = options.killAfterWays ?? Math.max(1, Math.floor(options.contacts / 50));
  const random = seededRandom(options.seed ?? 1);
  const dataDir = mkdtempSync(join(tmpdir(), 'els-journey-crash-'));
  const env = {
    ...(options.faults ? { FAULTS: options.faults, FAULTS_SEED: String(options.faultsSeed ?? 1) } : {}),
    ...(options.minuteMs !== undefined ? { LOCAL_JOURNEY_MINUTE_MS: String(options.minuteMs) } : {}),
    ...options.env,
  };
  let runtime: LocalProcess | undefined;
  try {
    runtime = await startLocalProcess({ dataDir, env });
    log(`started at ${runtime.baseUrl}`);
    if (options.minuteMs !== undefined && !runtime.output().includes('Journey waits sped up'))
      throw new Error(`the runtime did not take LOCAL_JOURNEY_MINUTE_MS=${options.minuteMs}:\n${runtime.output()}`);
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
    log(
      `journey ${journeyId} published (timeout ${timeoutMinutes} min of ${minuteMs} ms; ≤ ${cartsPerSecond} carts/s, ` +
        `≤ ${cartsAhead} ahead; ` +
        `kill after ${options.killAfter ?? 'never'} carts and ${killAfterWays} runs out each way)`,
    );

    const tag = Date.now().toString(36);
    const emailOf = (i: number) => `cart-${tag}-${i}@example.com`;
    const cartOf = (i: number) => `cart-${tag}-${i}`;
    const indexOfCart = new Map(Array.from({ length: options.contacts }, (_, i) => [cartOf(i), i]));
    const requests: JourneyCrashRunReport['requests'] = { carts: 0, checkouts: 0, unanswered: 0, refused: {} };
    const lastFailure = new Map<string, string>();

    /** One POST /client/events; the event id when answered 2xx. A request in flight when the runtime dies gets none. */
    const postEvent = async (body: Record<string, unknown>, kind: 'carts' | 'checkouts'): Promise<number | false> => {
      const key = String(body['idempotency_key']);
      const release = await slots.take(kind === 'checkouts');
      requests[kind] += 1;
      try {
        const response = await api('/client/events', { method: 'POST', body });
        const text = await response.text();
        if (response.status >= 300) {
          const code = (/"condition"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? '').slice(0, 40);
          const why = `${response.status}${code ? ` ${code}` : ''}`;
          requests.refused[why] = (requests.refused[why] ?? 0) + 1;
          lastFailure.set(key, `${response.status} ${text.slice(0, 160)}`);
          return false;
        }
        return (JSON.parse(text) as { data: { id: number } }).data.id;
      } catch (error) {
        requests.unanswered += 1;
        lastFailure.set(key, `no answer: ${(error as Error).name}`);
        return false;
      } finally {
        release();
      }
    };
    /** Sent again with its key, a second apart, until answered (the runtime may be down for a restart). */
    const postUntilAnswered = async (body: Record<string, unknown>, kind: 'carts' | 'checkouts') => {
      for (let attempt = 0; attempt < 300; attempt += 1) {
        const id = await postEvent(body, kind);
        if (id !== false) return id;
        await sleep(1_000);
      }
      log(`${String(body['idempotency_key'])} never accepted: ${lastFailure.get(String(body['idempotency_key']))}`);
      return undefined;
    };

    // The carts, paced; the checkouts, as their runs come to wait; the kill, once both ways have been taken.
    const started = Date.now();
    const cartIds = new Map<number, number>();
    const checkoutIds = new Map<number, number>();
    const checkoutsScheduled = new Set<number>();
    const checkouts: Promise<void>[] = [];
    let cartsDoneAt = 0;
    /** Runs come to wait or beyond, as the last look at the table found them. */
    let runsPastEntry = 0;
    const carts = (async () => {
      const sent: Promise<void>[] = [];
      for (let i = 0; i < options.contacts; i += 1) {
        await sleep(Math.max(0, started + (i * 1000) / cartsPerSecond - Date.now()));
        while (i - runsPastEntry >= cartsAhead) await sleep(250);
        sent.push(
          (async () => {
            const id = await postUntilAnswered(
              {
                type: 'cart_abandoned',
                email: emailOf(i),
                auto_create_contact: true,
                cart_id: cartOf(i),
                idempotency_key: `cart-${tag}-${i}`,
              },
              'carts',
            );
            if (id !== undefined) cartIds.set(i, id);
          })(),
        );
      }
      await Promise.all(sent);
      cartsDoneAt = Date.now();
      log(`carts accepted: ${cartIds.size} of ${options.contacts} in ${((cartsDoneAt - started) / 1000).toFixed(1)} s`);
    })();
    const checkOut = (i: number, atMs: number) => {
      checkoutsScheduled.add(i);
      checkouts.push(
        sleep(Math.max(0, atMs - Date.now())).then(async () => {
          const id = await postUntilAnswered(
            {
              type: 'checkout_completed',
              email: emailOf(i),
              cart_id: cartOf(i),
              idempotency_key: `checkout-${tag}-${i}`,
            },
            'checkouts',
          );
          if (id !== undefined) checkoutIds.set(i, id);
        }),
      );
    };

    let kill: JourneyCrashRunReport['kill'];
    let earlierOutput = '';
    const errorsLogged = new Set<string>();
    let restartMs: number | undefined;
    let recoveryStart = started;
    let cartsSettled = false;
    void carts.then(() => (cartsSettled = true));
    const checkers = Array.from({ length: options.contacts }, (_, i) => i).filter((i) => groupOf(i) !== 'none');
    let settleUntil = Number.POSITIVE_INFINITY;
    let lastLog = 0;
    for (;;) {
      let runs: RunRecord[];
      try {
        runs = await scanJourneyRuns(tableOf(runtime).db, tableOf(runtime).tableName, journeyId);
      } catch (error) {
        log(`runs not readable now: ${(error as Error).message.slice(0, 120)}`);
        await sleep(1_000);
        continue;
      }
      const ways: Ways = { on_event: 0, on_timeout: 0 };
      let waiting = 0;
      for (const run of runs) {
        const way = run.path.find((p) => p.step === STEP)?.via;
        if (way === 'on_event' || way === 'on_timeout') ways[way] += 1;
        const i = run.key_value === undefined ? undefined : indexOfCart.get(run.key_value);
        const isWaiting = run.status === 'waiting' && run.step_id === STEP;
        if (isWaiting) waiting += 1;
        if (i === undefined || groupOf(i) === 'none' || checkoutsScheduled.has(i)) continue;
        // A run seen only once it left its wait (its timeout passed while the runtime was down) gets its checkout at
        // once: a late checkout must change nothing.
        if (!isWaiting && way === undefined) continue;
        const dueAt = run.due_at ? Date.parse(run.due_at) : Date.now();
        checkOut(i, isWaiting && groupOf(i) === 'edge' ? dueAt + (random() * 2 - 1) * spreadMs : Date.now());
      }
      const ended = runs.filter((r) => r.status !== 'active' && r.status !== 'waiting').length;
      runsPastEntry = runs.filter((r) => r.status !== 'active').length;
      if (Date.now() - lastLog > 10_000) {
        for (const line of errorLines(runtime.output())
          .filter((l) => !errorsLogged.has(l))
          .slice(0, 3)) {
          errorsLogged.add(line);
          log(`runtime error: ${line}`);
        }
        log(
          `t+${((Date.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify({ carts: cartIds.size, runs: runs.length, waiting, ended, ...ways, checkouts: checkoutIds.size, requests })}`,
        );
        lastLog = Date.now();
      }

      if (
        options.killAfter !== undefined &&
        !kill &&
        cartIds.size >= options.killAfter &&
        ways.on_event >= killAfterWays &&
        ways.on_timeout >= killAfterWays
      ) {
        kill = {
          atMs: Date.now() - started,
          cartsAccepted: cartIds.size,
          checkoutsSent: checkoutIds.size,
          runsWaiting: waiting,
          ways,
        };
        log(`killing the runtime: ${JSON.stringify(kill)}`);
        await runtime.kill();
        earlierOutput = runtime.output();
        recoveryStart = Date.now();
        runtime = await startLocalProcess({ dataDir, env });
        restartMs = Date.now() - recoveryStart;
        log(`restarted in ${restartMs} ms: ${/Recovered after restart: .*/.exec(runtime.output())?.[0] ?? ''}`);
        continue;
      }

      if (cartsSettled && settleUntil === Number.POSITIVE_INFINITY)
        settleUntil = Date.now() + timeoutMinutes * minuteMs + (options.settleTimeoutMs ?? 300_000);
      const allCheckouts = checkers.every((i) => !cartIds.has(i) || checkoutsScheduled.has(i));
      if (cartsSettled && runs.length >= cartIds.size && ended === runs.length && allCheckouts) {
        await Promise.all(checkouts);
        const [queued, executing] = await Promise.all(['1', '2'].map((s) => executionTotal(runtime!, apiKey, s)));
        // An event whose run had already left the wait (a late checkout) can still be in its queue's retry after an
        // injected fault: the check reads once every event has been processed, or at the deadline.
        const settledEvents = await eventsOf(tableOf(runtime), [...cartIds.values(), ...checkoutIds.values()]);
        const eventsDone = [...settledEvents.values()].every((e) => e.queue_status === 'processed');
        if (queued === 0 && executing === 0 && eventsDone) break;
      }
      if (Date.now() > settleUntil) {
        log('gave up waiting for every run to end');
        break;
      }
      await sleep(2_000);
    }
    await Promise.all(checkouts);
    const recoveryMs = Date.now() - recoveryStart;
    if (options.killAfter !== undefined && !kill) log('the kill condition was never met: no crash in this run');

    // What the table, the SES journal and the API say.
    const table = tableOf(runtime);
    const runs = await scanJourneyRuns(table.db, table.tableName, journeyId);
    const events = await eventsOf(table, [...cartIds.values(), ...checkoutIds.values()]);
    const runDueLeft = await runDueEntries(table);
    const open = runs.filter((r) => r.status === 'active' || r.status === 'waiting');
    if (open.length > 0) {
      const sample = open
        .slice(0, 5)
        .map(({ id, status, step_id, seq, wait, due_at }) => ({ id, status, step_id, seq, wait, due_at }));
      log(`runs not ended: ${JSON.stringify(sample)}`);
    }
    const byStatus: Record<string, number> = {};
    for (const run of runs) byStatus[run.status] = (byStatus[run.status] ?? 0) + 1;
    const emails = sendsPerRecipient(new SesJournal(dataDir));
    const waysOut = { on_event: 0, on_timeout: 0, other: 0 };
    const race: JourneyCrashRunReport['race'] = {
      early: { contacts: 0, checkouts: 0, on_event: 0, on_timeout: 0 },
      edge: { contacts: 0, checkouts: 0, on_event: 0, on_timeout: 0 },
      none: { contacts: 0, checkouts: 0, on_event: 0, on_timeout: 0 },
    };
    for (let i = 0; i < options.contacts; i += 1) {
      race[groupOf(i)].contacts += 1;
      if (checkoutIds.has(i)) race[groupOf(i)].checkouts += 1;
    }
    const timedOut = new Set<string>();
    let resumedWithoutCheckout = 0;
    let mismatched = 0;
    const mismatches: unknown[] = [];
    for (const run of runs) {
      const left = run.path.filter((p) => p.step === STEP).map((p) => p.via);
      const i = run.key_value === undefined ? undefined : indexOfCart.get(run.key_value);
      const checkout = i === undefined ? undefined : events.get(checkoutIds.get(i) ?? -1);
      const checkoutResumed = checkout?.resumed_run_ids?.includes(run.id) ?? false;
      const way = left.length === 1 ? left[0] : undefined;
      if (way === 'on_event') {
        waysOut.on_event += 1;
        if (i === undefined || groupOf(i) === 'none') resumedWithoutCheckout += 1;
        else race[groupOf(i)].on_event += 1;
        if (!checkoutResumed) {
          mismatched += 1;
          mismatches.push({ run: run.id, way, checkout: checkout?.id, checkoutResumed });
        }
      } else if (way === 'on_timeout') {
        waysOut.on_timeout += 1;
        if (i !== undefined) {
          timedOut.add(emailOf(i));
          race[groupOf(i)].on_timeout += 1;
        }
        if (checkoutResumed) {
          mismatched += 1;
          mismatches.push({ run: run.id, way, checkout: checkout?.id, checkoutResumed });
        }
      } else waysOut.other += 1;
    }
    const errors = errorLines(`${earlierOutput}\n${runtime.output()}`);
    if (errors.length > 0)
      log(`the runtime logged ${errors.length} distinct error lines, first: ${errors.slice(0, 5).join('\n')}`);
    if (mismatches.length > 0)
      log(`runs whose way disagrees with the events: ${JSON.stringify(mismatches.slice(0, 5))}`);
    const eventsUnprocessed = [...events.values()].filter((e) => e.queue_status !== 'processed').length;
    const eventsMissing = cartIds.size + checkoutIds.size - events.size;
    const contactsWithRuns = new Set(runs.map((r) => r.contact_id));
    const remindersMissing = [...timedOut].filter((email) => emails.get(email) !== 1).length;
    const remindersUnexpected = [...emails.keys()].filter((email) => !timedOut.has(email)).length;
    const duplicateEmails = [...emails.values()].filter((n) => n > 1).length;
    const executions = await executionFigures(runtime.baseUrl, apiKey);
    const stats = await settledStats(runtime, apiKey, journeyId, log);
    const recoveredLine = /Recovered after restart: .*/.exec(runtime.output())?.[0];
    let faultsInjected: JourneyCrashRunReport['faultsInjected'];
    if (options.faults) {
      await runtime.stop();
      const line = /Faults injected: (.*)/.exec(runtime.output())?.[1];
      faultsInjected = line ? JSON.parse(line) : undefined;
    }
    const report: JourneyCrashRunReport = {
      contacts: options.contacts,
      accepted: cartIds.size,
      requests,
      ...(kill ? { kill } : {}),
      runs: { total: runs.length, byStatus },
      extraRuns: runs.length - contactsWithRuns.size,
      waysOut,
      race,
      checkoutsSent: checkoutIds.size,
      mismatched,
      resumedWithoutCheckout,
      eventsUnprocessed: eventsUnprocessed + eventsMissing,
      runDueLeft,
      stats,
      emails: [...emails.values()].reduce((a, b) => a + b, 0),
      remindersMissing,
      remindersUnexpected,
      duplicateEmails,
      executions,
      cartsMs: (cartsDoneAt || Date.now()) - started,
      recoveryMs,
      ...(restartMs !== undefined ? { restartMs } : {}),
      totalMs: Date.now() - started,
      ...(recoveredLine ? { recoveredLine } : {}),
      ...(faultsInjected ? { faultsInjected } : {}),
      clean:
        cartIds.size === options.contacts &&
        checkoutIds.size === checkers.length &&
        (options.killAfter === undefined || kill !== undefined) &&
        runs.length === options.contacts &&
        runs.length - contactsWithRuns.size === 0 &&
        (byStatus['completed'] ?? 0) === options.contacts &&
        waysOut.other === 0 &&
        waysOut.on_event + waysOut.on_timeout === options.contacts &&
        race.none.on_timeout === race.none.contacts &&
        mismatched === 0 &&
        resumedWithoutCheckout === 0 &&
        eventsUnprocessed + eventsMissing === 0 &&
        runDueLeft === 0 &&
        stats.waitingNow === 0 &&
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

/**
 * The distinct errors a runtime logged (the API's and the functions' unhandled errors), each as its function and the
 * error's name, message and first frame, so one cause repeated reads as one line.
 */
export const errorLines = (output: string): string[] => [
  ...new Set(
    output
      .split('\n')
      .filter((line) => line.includes('"level":"ERROR"'))
      .map((line) => {
        try {
          const entry = JSON.parse(line) as {
            function_name?: string;
            message?: string;
            error?: { name?: string; message?: string; stack?: string };
          };
          const frame =
            entry.error?.stack
              ?.split('\n')
              .find((l) => l.trim().startsWith('at '))
              ?.trim() ?? '';
          return `${entry.function_name ?? '?'}: ${entry.message ?? ''}: ${entry.error?.name ?? ''} ${entry.error?.message ?? ''} ${frame}`.slice(
            0,
            400,
          );
        } catch {
          return line.slice(0, 400);
        }
      }),
  ),
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** At most `size` holders at once; a waiting checkout is served before a waiting cart (it races a timeout). */
class Slots {
  private free: number;
  private readonly waiting: { first: (() => void)[]; rest: (() => void)[] } = { first: [], rest: [] };

  constructor(size: number) {
    this.free = size;
  }

  async take(first: boolean): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => (first ? this.waiting.first : this.waiting.rest).push(resolve));
    return () => {
      const next = this.waiting.first.shift() ?? this.waiting.rest.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}

export interface TableHandle {
  db: DynamoDBDocumentClient;
  tableName: string;
}

const tables = new WeakMap<LocalProcess, TableHandle>();

/** The runtime's own DynamoDB Local and table, as its start line names them. */
export function tableOf(runtime: LocalProcess): TableHandle {
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

/** The events with these ids, read from the table (a Scan: the run's table holds nothing else of size). */
async function eventsOf({ db, tableName }: TableHandle, ids: number[]): Promise<Map<number, EventRecord>> {
  const wanted = new Set(ids);
  const found = new Map<number, EventRecord>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression: 'begins_with(pk, :event) AND sk = :sk',
        ExpressionAttributeValues: { ':event': 'EVENT#', ':sk': 'EVENT' },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of (page.Items ?? []) as EventRecord[]) if (wanted.has(item.id)) found.set(item.id, item);
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

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

/**
 * GET /client/journeys/{id}/stats once the counters projection has caught up: the gauge trails the runs by the
 * projection's window, so it is read until no run is counted waiting (or 60 s passed) — 0 is what a clean run ends on.
 */
async function settledStats(
  runtime: LocalProcess,
  apiKey: string,
  journeyId: number,
  log: (line: string) => void,
): Promise<JourneyCrashRunReport['stats']> {
  let last: JourneyCrashRunReport['stats'] = { waitingNow: Number.NaN, entered: 0, ways: {} };
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const response = await politeFetch(`${runtime.baseUrl}/client/journeys/${journeyId}/stats`, {
      headers: { authorization: `Bearer ${apiKey}` },
      timeoutMs: 30_000,
    });
    const body = (await response.json()) as {
      data?: { steps: { step_id: string; waiting: number; entered: number; ways: Record<string, number> }[] };
    };
    if (response.status !== 200 || !body.data) {
      log(`stats answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
    } else {
      const wait = body.data.steps.find((s) => s.step_id === STEP);
      last = {
        waitingNow: body.data.steps.reduce((n, s) => n + s.waiting, 0),
        entered: wait?.entered ?? 0,
        ways: wait?.ways ?? {},
      };
      if (last.waitingNow === 0) return last;
    }
    await sleep(2_000);
  }
  return last;
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
