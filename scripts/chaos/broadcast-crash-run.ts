import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { TABLE_KEYS } from '../../shared/adapters/dynamo/table-definition.js';
import { BROADCAST_RATE_BY_TIER, BROADCAST_SHARE } from '../../shared/public/broadcast-rules.js';
import { LOST_AFTER_MS } from '../../shared/domain/broadcasts/engine/sweep-broadcasts.js';
import type { EngineBroadcast } from '../../shared/domain/broadcasts/recipient-store.js';
import type { ExecutionRecord } from '../../shared/domain/executions/execution-record.js';
import { DEMO_CLIENT } from '../../local/demo-client.js';
import { SesJournal } from '../../local/engine/ses-journal.js';
import { politeFetch } from './crash-run.js';
import { errorLines, tableOf, type TableHandle } from './journey-crash-run.js';
import { startLocalProcess, type LocalProcess } from './local-process.js';

/**
 * The crash run of a broadcast: N contacts, all subscribed, imported over HTTP into `npm start` with DATA_DIR; one
 * broadcast `now` to all subscribed, paced at the demo client's broadcast rate under SES_MAX_SEND_RATE 50 (so it
 * takes several seconds and the kill lands mid-send); the whole runtime killed with SIGKILL once `killAtShare` of the
 * recipients are in the local SES journal, started again on the same data, and waited on until the broadcast is
 * `sent` and no recipient is queued or claimed.
 *
 * It reports, from the SES journal (both lifetimes) and the table, what a clean run means: every recipient mailed
 * exactly once (none missing, none twice), one recipient execution per contact and none left at 1 (queued) or 2
 * (claimed), no due-index entry left, the head `sent`; and the send rate on each side of the kill, the one after the
 * restart at most 1.1 × the pace — the restart takes the pacer's chain over at the pace, it does not release every
 * waiting recipient at once.
 *
 * The broadcast's head is written into the table as the schedule route leaves it (status `scheduled`, its live entry
 * due) and the lost-chain sweep (LOCAL_SWEEP_EVERY_SECONDS) sends its start: the broadcasts API is not in this tree yet.
 */
export interface BroadcastCrashRunOptions {
  contacts: number;
  /**
   * Kill once this share of the recipients are in the SES journal (default 0.4); `'snapshot'`: as soon as the head is
   * seen `snapshotting` (the table read every 20 ms), before any recipient is mailed; `false`: no crash.
   */
  killAtShare?: number | false | 'snapshot';
  /**
   * The runtime's SES_MAX_SEND_RATE (default 50, the local runtime's): broadcasts take BROADCAST_SHARE of it. Lower
   * than 25 / BROADCAST_SHARE it, not the demo plan's 25/s, sets the pace.
   */
  sesMaxSendRate?: number;
  /** FAULTS for both starts (docs/development.md "Fault injection"). */
  faults?: string;
  faultsSeed?: number;
  /** Extra environment of the runtime. */
  env?: Record<string, string>;
  /**
   * Extra environment of the restart only (over `env`): `LOCAL_SWEEP_EVERY_SECONDS: '3600'` leaves the broadcast to
   * the restart's own recovery, with no lost-chain sweep to bring it back later.
   */
  restartEnv?: Record<string, string>;
  /** Give up waiting for the broadcast to end this long after the restart (default 1.5 × the send at the pace + 180 s). */
  settleTimeoutMs?: number;
  log?: (line: string) => void;
  /** Leave DATA_DIR in place (its path is logged), to look into a run that did not end clean. */
  keepData?: boolean;
}

export interface BroadcastCrashRunReport {
  contacts: number;
  /** Rows the bulk import created. */
  imported: number;
  /** E-mails a second the broadcast is paced at: the demo plan's broadcast rate and the account's broadcast share. */
  pace: number;
  /** Where the kill landed (absent without one): the head's status last read before it, and the e-mails SES had. */
  kill?: { atMs: number; mailed: number; headStatus: string };
  head: { status: string; total?: number };
  /** Recipient executions by status (3 completed); one per contact. */
  recipients: { total: number; contacts: number; byStatus: Record<string, number> };
  /** Recipients left at 1 (queued) or 2 (claimed) once the broadcast is sent (0). */
  stranded: number;
  /** Due-index entries left (0). */
  dueLeft: number;
  /** E-mails SES accepted for the broadcast's recipients, over both lifetimes. */
  emails: number;
  /** Contacts SES accepted no e-mail for (0). */
  missing: number;
  /** Contacts SES accepted more than one e-mail for (0). */
  duplicates: number;
  /**
   * E-mails a second over each side of the kill, from the journal's first send to its last there (the whole run
   * without a kill); `peakAfter`: the most in any window of 5 s after the restart, a second.
   */
  rate: { before: number; after?: number; peakAfter?: number };
  /** Seconds from the first start's broadcast to `sent`; the restart's own start; from the restart to `sent`. */
  timing: { totalS: number; restartS?: number; recoveryS?: number };
  recoveredLine?: string;
  faultsInjected?: Record<string, { calls: number; total: number; injected: Record<string, number> }>;
  clean: boolean;
}

const BROADCAST_ID = 1;
/** The local runtime's SES rate (local/runtime.ts's default, said here so the pace does not move under the run). */
const LOCAL_SES_MAX_SEND_RATE = 50;
const PEAK_WINDOW_MS = 5_000;

export async function broadcastCrashRun(options: BroadcastCrashRunOptions): Promise<BroadcastCrashRunReport> {
  const log = options.log ?? (() => {});
  const killAtShare = options.killAtShare === undefined ? 0.4 : options.killAtShare;
  const sesRate = options.sesMaxSendRate ?? LOCAL_SES_MAX_SEND_RATE;
  const pace = Math.min(
    BROADCAST_RATE_BY_TIER[DEMO_CLIENT.plan as keyof typeof BROADCAST_RATE_BY_TIER],
    sesRate * BROADCAST_SHARE,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'els-broadcast-crash-'));
  const env = {
    SES_MAX_SEND_RATE: String(sesRate),
    // The start is the lost-chain sweep's (see above): it looks every 5 s instead of every minute.
    LOCAL_SWEEP_EVERY_SECONDS: '5',
    ...(options.faults ? { FAULTS: options.faults, FAULTS_SEED: String(options.faultsSeed ?? 1) } : {}),
    ...options.env,
  };
  const journal = new SesJournal(dataDir);
  let runtime: LocalProcess | undefined;
  let earlierOutput = '';
  try {
    runtime = await startLocalProcess({ dataDir, env });
    log(`started at ${runtime.baseUrl}`);
    const apiKey = runtime.apiKey;
    const clientId = Number(/Demo client created: id (\d+)/.exec(runtime.output())?.[1]);
    if (!apiKey || !Number.isInteger(clientId))
      throw new Error(`the first start printed no demo client:\n${runtime.output()}`);
    const api = (path: string, body: unknown) =>
      politeFetch(`${runtime!.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs: 60_000,
      });

    // The audience, imported as a client imports it: 1,000 rows a request.
    const tag = Date.now().toString(36);
    const emailOf = (i: number) => `bc-${tag}-${i}@example.com`;
    const audience = new Set(Array.from({ length: options.contacts }, (_, i) => emailOf(i)));
    let imported = 0;
    for (let from = 0; from < options.contacts; from += 1_000) {
      const rows = Array.from({ length: Math.min(1_000, options.contacts - from) }, (_, j) => ({
        email: emailOf(from + j),
      }));
      const response = await api('/client/contacts/bulk', { contacts: rows });
      const body = (await response.json()) as { data?: { results: { status: string }[] } };
      if (response.status !== 200 || !body.data)
        throw new Error(
          `POST /client/contacts/bulk answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`,
        );
      imported += body.data.results.filter((r) => r.status === 'created').length;
    }
    log(`${imported} contacts imported; pace ${pace}/s, kill at ${killAtShare === false ? 'never' : killAtShare}`);

    const table = tableOf(runtime);
    await seedScheduledBroadcast(table, clientId);
    const started = Date.now();

    // Until the kill: the journal is read twice a second.
    let kill: BroadcastCrashRunReport['kill'];
    let restartAt: number | undefined;
    let restartS: number | undefined;
    let lastLog = started;
    const sendDeadline = started + (options.contacts / pace) * 1_500 + 180_000;
    if (killAtShare !== false) {
      for (;;) {
        const mailed = journalSends(journal, audience).length;
        const headStatus = (await headOf(table, clientId))?.status ?? 'absent';
        if (killAtShare === 'snapshot' ? headStatus === 'snapshotting' : mailed >= killAtShare * options.contacts) {
          kill = { atMs: Date.now() - started, mailed, headStatus };
          log(`killing the runtime: ${JSON.stringify(kill)}`);
          await runtime.kill();
          kill.mailed = journalSends(journal, audience).length;
          earlierOutput = runtime.output();
          restartAt = Date.now();
          runtime = await startLocalProcess({ dataDir, env: { ...env, ...options.restartEnv } });
          restartS = (Date.now() - restartAt) / 1000;
          log(`restarted in ${restartS} s: ${/Recovered after restart: .*/.exec(runtime.output())?.[0] ?? ''}`);
          break;
        }
        if (killAtShare === 'snapshot' && headStatus !== 'scheduled' && headStatus !== 'absent')
          throw new Error(`the snapshot ended before the kill: the head was seen ${headStatus} first`);
        if (Date.now() > sendDeadline) throw new Error(`only ${mailed} mailed before the deadline; no kill`);
        if (Date.now() - lastLog > 10_000) {
          log(`t+${((Date.now() - started) / 1000).toFixed(0)} s: head ${headStatus}, ${mailed} mailed`);
          lastLog = Date.now();
        }
        await sleep(killAtShare === 'snapshot' ? 20 : 500);
      }
    }

    // Until the head is sent and no recipient is queued or claimed.
    const after = tableOf(runtime);
    const settleUntil = Date.now() + (options.settleTimeoutMs ?? (options.contacts / pace) * 1_500 + 180_000);
    let head: EngineBroadcast | undefined;
    let recipients: ExecutionRecord[] = [];
    for (;;) {
      head = await headOf(after, clientId);
      if (head?.status === 'sent') {
        recipients = await recipientsOf(after, clientId);
        if (!recipients.some((r) => r.status === 1 || r.status === 2)) break;
      }
      if (Date.now() > settleUntil) {
        log(`gave up waiting: head ${head?.status}`);
        recipients = await recipientsOf(after, clientId);
        break;
      }
      if (Date.now() - lastLog > 10_000) {
        log(
          `t+${((Date.now() - started) / 1000).toFixed(0)} s: head ${head?.status}, ${journalSends(journal, audience).length} mailed`,
        );
        lastLog = Date.now();
      }
      await sleep(1_000);
    }
    const endedAt = Date.now();

    // What the journal and the table say.
    const sends = journalSends(journal, audience);
    const perContact = new Map<string, number>();
    for (const s of sends) perContact.set(s.to, (perContact.get(s.to) ?? 0) + 1);
    const missing = [...audience].filter((email) => !perContact.has(email)).length;
    const duplicates = [...perContact.values()].filter((n) => n > 1).length;
    const byStatus: Record<string, number> = {};
    for (const r of recipients) byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
    const stranded = recipients.filter((r) => r.status === 1 || r.status === 2);
    if (stranded.length > 0)
      log(
        `stranded recipients: ${JSON.stringify(stranded.slice(0, 5).map(({ id, status, scheduled_for, reason }) => ({ id, status, scheduled_for, reason })))}`,
      );
    const dueLeft = await dueEntries(after, clientId);
    const killedAt = restartAt ?? Number.POSITIVE_INFINITY;
    const rate = {
      before: rateOf(sends.filter((s) => s.at < killedAt)),
      ...(restartAt !== undefined
        ? {
            after: rateOf(sends.filter((s) => s.at >= killedAt)),
            peakAfter: peakOf(sends.filter((s) => s.at >= killedAt)),
          }
        : {}),
    };
    const errors = errorLines(`${earlierOutput}\n${runtime.output()}`);
    if (errors.length > 0)
      log(`the runtime logged ${errors.length} distinct error lines, first: ${errors.slice(0, 5).join('\n')}`);
    const recoveredLine = /Recovered after restart: .*/.exec(runtime.output())?.[0];
    let faultsInjected: BroadcastCrashRunReport['faultsInjected'];
    if (options.faults) {
      await runtime.stop();
      const line = /Faults injected: (.*)/.exec(runtime.output())?.[1];
      faultsInjected = line ? JSON.parse(line) : undefined;
    }
    const contacts = new Set(recipients.map((r) => r.contact_id)).size;
    const report: BroadcastCrashRunReport = {
      contacts: options.contacts,
      imported,
      pace,
      ...(kill ? { kill } : {}),
      head: { status: head?.status ?? 'absent', ...(head?.snapshot ? { total: head.snapshot.total } : {}) },
      recipients: { total: recipients.length, contacts, byStatus },
      stranded: stranded.length,
      dueLeft,
      emails: sends.length,
      missing,
      duplicates,
      rate,
      timing: {
        totalS: (endedAt - started) / 1000,
        ...(restartS !== undefined ? { restartS, recoveryS: (endedAt - restartAt!) / 1000 } : {}),
      },
      ...(recoveredLine ? { recoveredLine } : {}),
      ...(faultsInjected ? { faultsInjected } : {}),
      clean:
        imported === options.contacts &&
        (killAtShare === false || kill !== undefined) &&
        head?.status === 'sent' &&
        recipients.length === options.contacts &&
        contacts === options.contacts &&
        (byStatus['3'] ?? 0) === options.contacts &&
        stranded.length === 0 &&
        dueLeft === 0 &&
        sends.length === options.contacts &&
        missing === 0 &&
        duplicates === 0 &&
        (rate.after === undefined || rate.after <= 1.1 * pace),
    };
    log(
      `report: ${options.contacts} recipients, killed at ${kill?.mailed ?? '-'} mailed, sent in ${report.timing.totalS} s ` +
        `(restart ${restartS ?? '-'} s); ${sends.length} e-mails, ${duplicates} twice, ${missing} missing, ` +
        `${stranded.length} stranded, ${dueLeft} due entries left; rate ${rate.before.toFixed(1)}/s before, ` +
        `${rate.after?.toFixed(1) ?? '-'}/s after (peak ${rate.peakAfter?.toFixed(1) ?? '-'}/s over ${PEAK_WINDOW_MS / 1000} s), ` +
        `pace ${pace}/s; ${report.clean ? 'clean' : 'NOT clean'}`,
    );
    return report;
  } finally {
    await runtime?.stop().catch(() => undefined);
    if (options.keepData) log(`data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The head as POST /client/broadcasts/{id}/schedule leaves it for a `now` broadcast to all subscribed: `scheduled`,
 * and its live entry due — past the sweep's 2 minutes, so the next sweep-broadcasts sends its start.
 */
async function seedScheduledBroadcast({ db, tableName }: TableHandle, clientId: number): Promise<void> {
  const now = new Date().toISOString();
  const due = new Date(Date.now() - LOST_AFTER_MS - 1_000).toISOString();
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.broadcast(clientId, BROADCAST_ID),
        ...keys.broadcastLiveEntry(clientId, BROADCAST_ID, due),
        entity: 'broadcast',
        id: BROADCAST_ID,
        client_id: clientId,
        name: 'Crash run',
        status: 'scheduled',
        draft_version: 1,
        definition: {
          audience: { all_subscribed: true },
          category: 'marketing',
          topic_id: null,
          variants: [{ template_id: 1 }],
          schedule: { mode: 'now' },
        },
        created_at: now,
        updated_at: now,
      },
    }),
  );
}

async function headOf({ db, tableName }: TableHandle, clientId: number): Promise<EngineBroadcast | undefined> {
  const out = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.broadcast(clientId, BROADCAST_ID), ConsistentRead: true }),
  );
  return out.Item as EngineBroadcast | undefined;
}

/** Every page of a Query. */
async function queryAll(
  { db, tableName }: TableHandle,
  index: string,
  pk: string,
  select?: 'COUNT',
): Promise<{ items: Record<string, unknown>[]; count: number }> {
  const items: Record<string, unknown>[] = [];
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index === TABLE_KEYS.gsi1.name ? 'gsi1pk' : 'gsi3pk' },
        ExpressionAttributeValues: { ':pk': pk },
        ...(select ? { Select: select } : {}),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return { items, count };
}

/** The broadcast's recipients from its listing (16 gsi1 partitions), each item read in full. */
async function recipientsOf(table: TableHandle, clientId: number): Promise<ExecutionRecord[]> {
  const shards = await Promise.all(
    Array.from({ length: keys.broadcastRecipientShards }, (_, shard) =>
      queryAll(table, TABLE_KEYS.gsi1.name, keys.broadcastRecipientsPk(clientId, BROADCAST_ID, shard)),
    ),
  );
  return shards.flatMap((s) => s.items) as unknown as ExecutionRecord[];
}

/** Recipients still in the due index, over every partition the head may have (1–16). */
async function dueEntries(table: TableHandle, clientId: number): Promise<number> {
  const counts = await Promise.all(
    Array.from(
      { length: 16 },
      async (_, p) =>
        (await queryAll(table, TABLE_KEYS.gsi3.name, keys.broadcastDuePk(clientId, BROADCAST_ID, p), 'COUNT')).count,
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** The Send notifications the local SES journaled for these recipients (both lifetimes), oldest first. */
function journalSends(journal: SesJournal, audience: Set<string>): { to: string; at: number }[] {
  const out: { to: string; at: number }[] = [];
  for (const entry of journal.entries()) {
    const record = JSON.parse(String(entry.message['Message'])) as {
      eventType?: string;
      mail?: { destination?: string[] };
    };
    if (record.eventType !== 'Send') continue;
    for (const to of record.mail?.destination ?? []) if (audience.has(to)) out.push({ to, at: entry.at });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** Sends a second from the first to the last: (n − 1) intervals over their span. */
function rateOf(sends: { at: number }[]): number {
  if (sends.length < 2) return 0;
  const spanS = (sends.at(-1)!.at - sends[0]!.at) / 1000;
  return spanS > 0 ? (sends.length - 1) / spanS : Number.POSITIVE_INFINITY;
}

/** The most sends any window of PEAK_WINDOW_MS starting at a send holds, a second. */
function peakOf(sends: { at: number }[]): number {
  let best = 0;
  let end = 0;
  for (let i = 0; i < sends.length; i += 1) {
    while (end < sends.length && sends[end]!.at < sends[i]!.at + PEAK_WINDOW_MS) end += 1;
    best = Math.max(best, end - i);
  }
  return best / (PEAK_WINDOW_MS / 1000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
