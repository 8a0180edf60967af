import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SesJournal } from '../../local/engine/ses-journal.js';
import { startLocalProcess, type LocalProcess } from './local-process.js';

/**
 * The operator's crash-recovery run, as a program: N async `trial_ending` events over HTTP against `npm start` with
 * DATA_DIR (each with an idempotency key and a new address, so each starts one execution), the whole runtime killed
 * with SIGKILL once `killAfter` were accepted, started again at once on the same data, every unanswered request sent
 * again with its key, then waited on until the engine is quiet. It reports what a clean recovery means: every accepted
 * event processed once, no recipient mailed twice, and how long after the restart the engine took to get there.
 */
export interface CrashRunOptions {
  events: number;
  /** Kill once this many were accepted; omit for a run without a crash. */
  killAfter?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** FAULTS for both starts (docs/development.md "Fault injection"). */
  faults?: string;
  faultsSeed?: number;
  /** Extra environment of the runtime. */
  env?: Record<string, string>;
  /** Give up waiting for a quiet engine after this long. */
  settleTimeoutMs?: number;
  log?: (line: string) => void;
  /** Leave DATA_DIR in place (its path is logged), to look into a run that did not end clean. */
  keepData?: boolean;
}

export interface CrashRunReport {
  events: number;
  accepted: number;
  /** Distinct event ids answered over all requests and re-sends (one per idempotency key when nothing is duplicated). */
  distinctEvents: number;
  /** Accepted events not processed when the engine went quiet (an accepted event is never lost: 0). */
  unprocessed: number;
  executions: { total: number; byStatus: Record<string, number> };
  /** Recipients SES accepted more than one e-mail for (from the local SES journal: both lifetimes). */
  duplicateEmails: number;
  emails: number;
  /** From the second start's spawn to the quiet engine (ms); from the first request when there was no crash. */
  recoveryMs: number;
  /** From the second start's spawn to its API answering (recovery at start included). */
  restartMs?: number;
  /** From the second start's spawn until every execution created before the kill is finished. */
  preCrashMs?: number;
  /** The runtime's own line about what it recovered at start. */
  recoveredLine?: string;
  clean: boolean;
}

interface Answer {
  status: number;
  eventId?: number;
  /** Answered by the runtime that was then killed. */
  firstRun?: boolean;
}

export async function crashRun(options: CrashRunOptions): Promise<CrashRunReport> {
  const log = options.log ?? (() => {});
  const dataDir = mkdtempSync(join(tmpdir(), 'els-crash-'));
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
    const run = `${Date.now().toString(36)}`;
    const bodies = Array.from({ length: options.events }, (_, i) => ({
      type: 'trial_ending',
      email: `crash-${run}-${i}@example.com`,
      auto_create_contact: true,
      idempotency_key: `crash-${run}-${i}`,
    }));
    const answers = new Map<number, Answer>();
    const lastFailure = new Map<number, string>();
    let accepted = 0;
    let killed: Promise<void> | undefined;
    const started = Date.now();

    const send = async (base: string, i: number): Promise<Answer | undefined> => {
      try {
        const response = await politeFetch(`${base}/client/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(bodies[i]),
          // A request the runtime never answers must not stall the run: it is sent again like any unanswered one.
          timeoutMs: 30_000,
        });
        const body = (await response.json().catch(() => ({}))) as { data?: { id?: number }; errors?: unknown };
        if (response.status >= 300)
          lastFailure.set(i, `${response.status} ${JSON.stringify(body.errors ?? body).slice(0, 160)}`);
        return { status: response.status, ...(body.data?.id !== undefined ? { eventId: body.data.id } : {}) };
      } catch (error) {
        lastFailure.set(i, `no answer: ${(error as Error).name}`);
        return undefined; // no answer: the runtime died with the request in flight
      }
    };

    // The burst; the kill lands while requests are in flight.
    const first = runtime;
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency ?? 16 }, async () => {
        while (next < bodies.length && !killed) {
          const i = next++;
          const answer = await send(first.baseUrl, i);
          if (answer && answer.status < 300) {
            answers.set(i, { ...answer, firstRun: true });
            accepted += 1;
            if (options.killAfter !== undefined && accepted >= options.killAfter && !killed) {
              log(`killing the runtime after ${accepted} accepted`);
              killed = first.kill();
            }
          }
        }
      }),
    );
    if (killed) await killed;
    log(`burst done: ${accepted} accepted`);

    let recoveryStart = started;
    let restartMs: number | undefined;
    let preCrash: Promise<number> | undefined;
    if (killed) {
      recoveryStart = Date.now();
      const killedAt = new Date().toISOString();
      runtime = await startLocalProcess({ dataDir, env });
      restartMs = Date.now() - recoveryStart;
      log(`restarted in ${restartMs} ms`);
      preCrash = preCrashSettled(runtime.baseUrl, apiKey, killedAt).then((at) => at - recoveryStart);
    }
    const base = runtime.baseUrl;
    // Every request not answered with success is sent again with its key, until it is (a 5xx under faults is retried).
    for (let round = 0; round < 20; round += 1) {
      const missing = bodies.map((_, i) => i).filter((i) => !answers.has(i));
      if (missing.length === 0) break;
      const why = new Map<string, number>();
      for (const i of missing) why.set(lastFailure.get(i) ?? 'none', (why.get(lastFailure.get(i) ?? 'none') ?? 0) + 1);
      log(
        `re-sending ${missing.length} unanswered requests (round ${round + 1}): ${JSON.stringify(Object.fromEntries(why))}`,
      );
      let cursor = 0;
      await Promise.all(
        Array.from({ length: options.concurrency ?? 16 }, async () => {
          while (cursor < missing.length) {
            const i = missing[cursor++]!;
            const answer = await send(base, i);
            if (answer && answer.status < 300) answers.set(i, answer);
          }
        }),
      );
    }

    const quiet = await waitQuiet(base, apiKey, options.events, options.settleTimeoutMs ?? 180_000, log);
    const recoveryMs = Date.now() - recoveryStart;
    const preCrashMs = preCrash ? await preCrash : undefined;
    const emails = sendsPerRecipient(new SesJournal(dataDir));
    const distinctEvents = new Set([...answers.values()].map((a) => a.eventId)).size;
    const duplicateEmails = [...emails.values()].filter((n) => n > 1).length;
    const recoveredLine = /Recovered after restart: .*/.exec(runtime.output())?.[0];
    const unprocessed = await unprocessedEvents(
      base,
      apiKey,
      [...answers.values()].map((a) => a.eventId).filter((id): id is number => id !== undefined),
    );
    if (unprocessed.length > 0) {
      const byId = new Map([...answers].map(([i, a]) => [a.eventId, { index: i, ...a }]));
      log(
        `unprocessed events: ${JSON.stringify(unprocessed.slice(0, 5).map((e) => ({ e, answer: byId.get((e as { id?: number }).id) })))}`,
      );
    }
    const report: CrashRunReport = {
      events: options.events,
      accepted: answers.size,
      distinctEvents,
      unprocessed: unprocessed.length,
      executions: quiet,
      duplicateEmails,
      emails: emails.size,
      recoveryMs,
      ...(restartMs !== undefined ? { restartMs } : {}),
      ...(preCrashMs !== undefined ? { preCrashMs } : {}),
      ...(recoveredLine ? { recoveredLine } : {}),
      clean:
        answers.size === options.events &&
        distinctEvents === options.events &&
        unprocessed.length === 0 &&
        quiet.total === options.events &&
        (quiet.byStatus['3'] ?? 0) === options.events &&
        duplicateEmails === 0 &&
        emails.size === options.events,
    };
    return report;
  } finally {
    await runtime?.stop().catch(() => undefined);
    if (options.keepData) log(`data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

/** When every execution created before `killedAt` is finished (none queued or executing), polled every second. */
async function preCrashSettled(base: string, apiKey: string, killedAt: string): Promise<number> {
  for (let i = 0; i < 600; i += 1) {
    const open = await Promise.all(
      ['1', '2'].map(async (status) => {
        const response = await politeFetch(
          `${base}/client/executions?per_page=1&status=${status}&created_to=${encodeURIComponent(killedAt)}`,
          {
            headers: { authorization: `Bearer ${apiKey}` },
          },
        );
        return ((await response.json()) as { meta?: { total?: number } }).meta?.total ?? 0;
      }),
    );
    if (open[0] === 0 && open[1] === 0) return Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return Date.now();
}

/**
 * Until every execution is finished (none queued or executing) and there are `expected`, or the timeout. The queued
 * and executing totals are read from one-item pages (exact while they are small, and zero is what is waited for);
 * the whole count is taken from the data (executionFigures) only once they are zero.
 */
async function waitQuiet(
  base: string,
  apiKey: string,
  expected: number,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<CrashRunReport['executions']> {
  const until = Date.now() + timeoutMs;
  let lastLog = 0;
  // Listing executions reads up to 1 000 index entries a shard: poll lightly, or the poll slows the engine it measures.
  for (;;) {
    const [queued, executing] = await Promise.all([total(base, apiKey, '&status=1'), total(base, apiKey, '&status=2')]);
    if (Date.now() - lastLog > 10_000) {
      log(`executions ${JSON.stringify({ queued, executing })}`);
      lastLog = Date.now();
    }
    if (queued + executing === 0 || Date.now() > until) {
      const figures = await executionFigures(base, apiKey);
      if (figures.total >= expected || Date.now() > until) return figures;
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

async function total(base: string, apiKey: string, query: string): Promise<number> {
  const response = await politeFetch(`${base}/client/executions?per_page=1${query}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return ((await response.json()) as { meta?: { total?: number } }).meta?.total ?? 0;
}

/**
 * Every execution of the client by status, counted one by one over the listing's cursor pages (100 a page). Not the
 * listing's `meta.total`: a numbered page counts at most 100 matches past it in each of the 8 listing shards, so
 * `per_page=1` reads a total of at most 808 (`total_is_exact` false) — the 808 a 1,000-send run once reported.
 */
export async function executionFigures(base: string, apiKey: string): Promise<CrashRunReport['executions']> {
  const byStatus: Record<string, number> = {};
  let total = 0;
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await politeFetch(`${base}/client/executions?per_page=100${query}`, {
      headers: { authorization: `Bearer ${apiKey}` },
      timeoutMs: 30_000,
    });
    const body = (await response.json()) as {
      data?: { executions?: { status: number }[]; next_cursor?: string | null };
    };
    if (response.status !== 200 || !body.data?.executions)
      throw new Error(`GET /client/executions answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
    for (const execution of body.data.executions) {
      byStatus[String(execution.status)] = (byStatus[String(execution.status)] ?? 0) + 1;
      total += 1;
    }
    cursor = body.data.next_cursor ?? null;
  } while (cursor !== null);
  return { total, byStatus };
}

/** The events (by id) not processed, with what GET /client/events/{id} says of them. */
async function unprocessedEvents(base: string, apiKey: string, ids: number[]): Promise<unknown[]> {
  const found: unknown[] = [];
  for (let i = 0; i < ids.length; i += 20) {
    const answers = await Promise.all(
      ids.slice(i, i + 20).map(async (id) => {
        const response = await politeFetch(`${base}/client/events/${id}`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        return ((await response.json()) as { data?: Record<string, unknown> }).data ?? { id, status: response.status };
      }),
    );
    found.push(...answers.filter((e) => e?.['processed'] !== true));
  }
  return found;
}

/** Recipient → e-mails SES accepted for it, from the Send notifications the local SES journaled (both lifetimes). */
export function sendsPerRecipient(journal: SesJournal): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of journal.entries()) {
    const record = JSON.parse(String(entry.message['Message'])) as {
      eventType?: string;
      mail?: { destination?: string[] };
    };
    if (record.eventType !== 'Send') continue;
    for (const to of record.mail?.destination ?? []) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}

/**
 * `fetch` as a well-behaved API client calls it: a 429 (the client's rate limit) is waited out for its
 * Retry-After and sent again, at most 60 times; any other answer is returned. `timeoutMs` bounds each attempt.
 */
export async function politeFetch(
  url: string,
  init: Omit<RequestInit, 'signal'> & { timeoutMs?: number } = {},
): Promise<Response> {
  const { timeoutMs, ...rest } = init;
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(url, { ...rest, ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}) });
    if (response.status !== 429 || attempt >= 60) return response;
    await response.arrayBuffer();
    const seconds = Number(response.headers.get('retry-after') ?? '1');
    await new Promise((resolve) =>
      setTimeout(resolve, (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000 + Math.random() * 200),
    );
  }
}
