import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { queueFunctions, QUEUE_FUNCTION_DEFAULTS } from '../../functions/queues.js';
import { createQueueDispatcher } from '../queue-functions.js';
import type { FaultInjection } from '../../shared/adapters/faults/fault-injection.js';
import { SesMailer } from '../../shared/adapters/ses/ses-mailer.js';
import type { Ports } from '../../shared/composition/port-registry.js';
import { LocalQueue } from './local-queue.js';
import { LocalScheduler } from './local-scheduler.js';
import { SesJournal } from './ses-journal.js';
import { SimulatorMailer } from './simulator-mailer.js';

/**
 * The engine's moving parts on the local runtime: an in-process SQS with every queue function of functions/queues.ts
 * consuming its queue, an in-process scheduler, and SES through aws-ses-v2-local with the mailbox simulator. They
 * replace the queue (and its dead letters), scheduler and mailer ports — and nothing else — in the container.
 */
export interface LocalEngineOptions {
  sesUrl: string;
  region: string;
  /** Local redelivery delay of a failed message (AWS: 6 × the function timeout). */
  visibilityTimeoutMs?: number;
  /** FAULTS: wraps the queue and mailer ports the container sees, not the engine's own use of the queue. */
  faults?: FaultInjection;
  /** With DATA_DIR, the local SES journals every notification it publishes (ses-journal.ts), replayed at start. */
  dataDir?: string;
}

export interface LocalEngine {
  overrides: Pick<Ports, 'queue' | 'deadLetters' | 'scheduler' | 'mailer'>;
  queue: LocalQueue;
  scheduler: LocalScheduler;
  /** Present with DATA_DIR: what the local SES published, durable across a kill. */
  journal?: SesJournal;
  stop(): Promise<void>;
}

export function createLocalEngine(options: LocalEngineOptions): LocalEngine {
  const queue = new LocalQueue();
  const scheduler = new LocalScheduler(queue);
  const ses = new SESv2Client({
    region: options.region,
    endpoint: options.sesUrl,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  // SES's status events reach the status queue as they would through the configuration set's SNS topic.
  const journal = options.dataDir ? new SesJournal(options.dataDir) : undefined;
  const mailer = new SimulatorMailer(
    new SesMailer(ses),
    (message, delaySeconds) => {
      // Durable before the send returns, as SES → SNS → SQS is on AWS.
      journal?.append(message, delaySeconds);
      return queue.send('ses-status', message, { delaySeconds });
    },
    options.region,
  );
  const dispatcher = createQueueDispatcher({ region: options.region });
  for (const fn of queueFunctions) {
    queue.consume(fn.queue, {
      // Batches and concurrency as the function's event source mapping on AWS (SES_MAX_SEND_RATE sizes the sender's).
      ...dispatcher.sizingOf(fn.queue),
      maxReceiveCount: fn.maxReceiveCount ?? QUEUE_FUNCTION_DEFAULTS.maxReceiveCount,
      visibilityTimeoutMs: Math.max(options.visibilityTimeoutMs ?? 5_000, (fn.longestRunSeconds ?? 0) * 1000),
      deliver: (deliveries) => dispatcher.deliver(fn.queue, deliveries),
    });
  }
  return {
    // Faults wrap outside the SimulatorMailer: an after-send fault comes after SES accepted and notified, as on AWS.
    overrides: {
      queue: options.faults?.queue(queue) ?? queue,
      // The local redrive route (dev-queues-redrive) moves the in-process queue's dead letters back.
      deadLetters: { redrive: async (name) => ({ kind: 'moved', moved: queue.redrive(name) }) },
      scheduler,
      mailer: options.faults?.mailer(mailer) ?? mailer,
    },
    queue,
    scheduler,
    ...(journal ? { journal } : {}),
    stop: async () => {
      scheduler.stop();
      await queue.stop();
    },
  };
}

/**
 * The secret that signs /u and /v links: `LINK_SECRET` when set; with DATA_DIR generated once and kept beside the
 * data (links in mails already sent keep working after a restart); otherwise new for each run.
 */
export function ensureLinkSecret(dataDir: string | undefined): void {
  if (process.env['LINK_SECRET']) return;
  if (!dataDir) {
    process.env['LINK_SECRET'] = randomBytes(32).toString('hex');
    return;
  }
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'link-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  process.env['LINK_SECRET'] = readFileSync(file, 'utf8').trim();
}
