/**
 * The arithmetic of one large broadcast on AWS (docs/capacity.md "A 1,000,000-contact broadcast"): how long its
 * snapshot takes, how fast its recipients are sent, the whole time, and which limit binds — SES's rate (the broadcast
 * share of it, the client's plan), the sender mapping's Lambda concurrency, or DynamoDB's partitions and table
 * throughput. Pure: it reads the engine's and the infra's own constants, so a change there changes the table, and it is
 * unit-tested in test/unit/scripts/bench. `npx tsx scripts/bench/broadcast-capacity.ts` prints the markdown table.
 */
import { fileURLToPath } from 'node:url';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { duePartitionsOf } from '../../shared/domain/broadcasts/engine/start.js';
import { SNAPSHOT_PAGE } from '../../shared/domain/broadcasts/engine/snapshot-page.js';
import { BROADCAST_RATE_BY_TIER, BROADCAST_SHARE } from '../../shared/public/broadcast-rules.js';
import { QUEUE_FUNCTION_DEFAULTS } from '../../functions/queues.js';
import { senderCeiling, senderSizing } from '../../infra/queue-concurrency.js';

/** One partition key value's write ceiling (docs/capacity.md §2), and the share of it the design plans to use. */
export const PARTITION_WCU = 1000;
export const PARTITION_PLANNED_SHARE = 0.5;
/** An on-demand table: what a new one serves at once, and the account's default table quota (docs/capacity.md §2). */
export const NEW_TABLE_WRU = 4000;
export const TABLE_QUOTA_WRU = 40_000;

/**
 * Seconds one snapshot page takes on AWS, at the fastest plausible: the SQS hop to the next page's invocation
 * (≈ 50 ms), 1 BatchGetItem + 1 Query + 1 UpdateItem (≈ 10 ms each), the transaction of ≤ 100 Puts (≈ 100 ms: it
 * writes 98 recipients with their index entries), 1 SendMessage (≈ 10 ms). An estimate until measured on AWS.
 */
export const PAGE_SECONDS = 0.25;

/**
 * Write units one recipient costs while the snapshot writes it: the execution item (≤ 1 KB) Put in a transaction
 * (2 units), its gsi1 entry (the recipient list) and its gsi3 entry (the due index, BDUE) 1 each.
 */
export const SNAPSHOT_WRU_PER_RECIPIENT = 4;
/**
 * Write units one recipient costs while it is sent: the executor's claim and finish of the execution (2 updates,
 * each also rewriting gsi1 and removing / replacing gsi3: ≈ 2 + 2 + 1), the client's quota shard and the e-mail's
 * record (≈ 2). Reads are not what binds here.
 */
export const SEND_WRU_PER_RECIPIENT = 9;

export interface BroadcastScenario {
  contacts: number;
  /** SES's account send rate, e-mails a second (context `sesMaxSendRate`). */
  sesRate: number;
  /** The client's plan: its broadcast rate caps one broadcast whatever the account allows. */
  plan: keyof typeof BROADCAST_RATE_BY_TIER;
  /** `all_subscribed` / a topic read the contacts' listing shards; a segment its member shards. */
  audience: 'contacts' | 'segment';
  /** A table that has never served more than its initial on-demand throughput. */
  newTable?: boolean;
}

export type Limit = 'SES rate × broadcast share' | 'plan broadcast rate' | 'sender concurrency' | 'DynamoDB partition';

export interface BroadcastCapacity {
  /** Parallel snapshot chains (one per source shard) and pages each. */
  chains: number;
  pagesPerChain: number;
  /** Recipients a second the chains write, and as long as the table's throughput allows. */
  snapshotRate: number;
  snapshotSeconds: number;
  /** What holds the snapshot back: the chains themselves, or the table's write throughput. */
  snapshotLimit: 'page chains' | 'table throughput';
  /** Due partitions (BDUE) the recipients wait in, and the write units a second on the busiest during the snapshot. */
  duePartitions: number;
  duePartitionWru: number;
  /** Recipient-list (gsi1) partitions and the write units a second on each during the snapshot. */
  listPartitionWru: number;
  /** The sender mapping (batch × concurrency) and the e-mails a second it can start. */
  senderBatch: number;
  senderConcurrency: number;
  senderCeiling: number;
  /** The rates the send phase is held under. */
  accountShare: number;
  planRate: number;
  sendRate: number;
  sendLimit: Limit;
  sendSeconds: number;
  /** Table write units a second while sending. */
  sendWru: number;
  totalSeconds: number;
}

/** The snapshot, then the sends (the pacer starts when the last shard is written), with what binds each. */
export function broadcastCapacity(s: BroadcastScenario): BroadcastCapacity {
  const chains = s.audience === 'segment' ? keys.segmentMemberShards : keys.contactShards;
  const pagesPerChain = Math.ceil(s.contacts / chains / SNAPSHOT_PAGE);
  const chainRate = (chains * SNAPSHOT_PAGE) / PAGE_SECONDS;
  const tableWru = s.newTable ? NEW_TABLE_WRU : TABLE_QUOTA_WRU;
  const tableRate = tableWru / SNAPSHOT_WRU_PER_RECIPIENT;
  const snapshotRate = Math.min(chainRate, tableRate);
  const snapshotSeconds = Math.max(pagesPerChain * PAGE_SECONDS, s.contacts / snapshotRate);
  const duePartitions = duePartitionsOf(s.contacts);
  // A recipient's gsi1 key is its contact mod 16; its BDUE partition its id mod S: both spread evenly.
  const listPartitionWru = snapshotRate / keys.broadcastRecipientShards;
  const duePartitionWru = snapshotRate / duePartitions;

  const sizing = senderSizing(s.sesRate, QUEUE_FUNCTION_DEFAULTS.batchSize);
  const ceiling = senderCeiling(sizing);
  const accountShare = s.sesRate * BROADCAST_SHARE;
  const planRate = BROADCAST_RATE_BY_TIER[s.plan];
  // Each send removes its recipient's BDUE entry: the due partitions, at the planned share of a key, bound the rate.
  const partitionRate = PARTITION_WCU * PARTITION_PLANNED_SHARE * duePartitions;
  const candidates: Array<[Limit, number]> = [
    ['SES rate × broadcast share', accountShare],
    ['plan broadcast rate', planRate],
    ['sender concurrency', ceiling],
    ['DynamoDB partition', partitionRate],
  ];
  const [sendLimit, sendRate] = candidates.reduce((low, c) => (c[1] < low[1] ? c : low));
  const sendSeconds = s.contacts / sendRate;
  return {
    chains,
    pagesPerChain,
    snapshotRate,
    snapshotSeconds,
    snapshotLimit: chainRate <= tableRate ? 'page chains' : 'table throughput',
    duePartitions,
    duePartitionWru,
    listPartitionWru,
    senderBatch: sizing.batchSize,
    senderConcurrency: sizing.maxConcurrency,
    senderCeiling: ceiling,
    accountShare,
    planRate,
    sendRate,
    sendLimit,
    sendSeconds,
    sendWru: sendRate * SEND_WRU_PER_RECIPIENT,
    totalSeconds: snapshotSeconds + sendSeconds,
  };
}

/** 3 h 28 min, 9 min 40 s, 42 s. */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h === 0) return `${m} min ${s % 60} s`;
  return `${h} h ${String(m).padStart(2, '0')} min`;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** The docs/capacity.md table: one row per SES rate, a scale client's 1,000,000 subscribed contacts. */
export function capacityTable(rates: readonly number[] = [14, 100, 1000], contacts = 1_000_000): string {
  const rows = rates.map((sesRate) => {
    const c = broadcastCapacity({ contacts, sesRate, plan: 'scale', audience: 'contacts' });
    const n = broadcastCapacity({ contacts, sesRate, plan: 'scale', audience: 'contacts', newTable: true });
    return (
      `| ${fmt(sesRate)} | ${c.chains} × ${fmt(c.pagesPerChain)} pages: ${duration(c.snapshotSeconds)} ` +
      `(${fmt(c.snapshotRate)}/s; a new table: ${duration(n.snapshotSeconds)}) | ${c.senderBatch} × ${c.senderConcurrency} ` +
      `(≤ ${fmt(c.senderCeiling, 1)}/s) | ${fmt(c.accountShare, 1)} / ${fmt(c.planRate)} | **${fmt(c.sendRate, 1)}/s**: ` +
      `${c.sendLimit} | ${duration(c.sendSeconds)} | **${duration(c.totalSeconds)}** |`
    );
  });
  return [
    '| SES rate (e-mails/s) | snapshot: chains × pages, time | sender batch × concurrency | account share / plan rate (e-mails/s) | send rate: what binds | sending | total |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(capacityTable());
