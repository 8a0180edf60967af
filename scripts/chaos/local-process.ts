import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * `npm start` as a user runs it, in a process group of its own (Node + DynamoDB Local's Java), so a chaos run can kill
 * the whole runtime at once with SIGKILL — no shutdown hook runs — and start it again on the same DATA_DIR.
 */
export interface LocalProcess {
  baseUrl: string;
  /** The demo client's API key, printed only by the first start on an empty DATA_DIR. */
  apiKey?: string;
  /** Everything the process printed so far. */
  output(): string;
  /**
   * SIGKILL to Node (the API and every worker die mid-request, no shutdown hook runs), then, `storeGraceMs` later, to
   * the whole group (DynamoDB Local's JVM). DynamoDB on AWS never loses an acknowledged write; DynamoDB Local answers a
   * write before it reaches its file (measured: killed right after its last answer it lost that transaction in 7 of
   * 8 rounds, 200 ms later in 0 of 6 — docs/decisions/0069-nothing-stranded-claims-decided-from-evidence.md). The grace keeps the store as durable as the one it stands
   * for, so the run tests the runtime's recovery, not the emulator's.
   */
  kill(storeGraceMs?: number): Promise<void>;
  /** SIGTERM, the clean stop (Ctrl-C). */
  stop(): Promise<void>;
}

export interface StartOptions {
  dataDir: string;
  env?: Record<string, string>;
  /** Default 120 s (two JVM starts on a busy 2-core machine). */
  timeoutMs?: number;
}

const ROOT = join(import.meta.dirname, '..', '..');

export async function startLocalProcess(options: StartOptions): Promise<LocalProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'local', 'start.ts')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      DYNAMODB_PORT: '0',
      SES_PORT: '0',
      DATA_DIR: options.dataDir,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...options.env,
    },
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the local runtime did not start within ${options.timeoutMs ?? 120_000} ms:\n${text}`)),
      options.timeoutMs ?? 120_000,
    );
    const look = () => {
      const ready = /API ready at (\S+)/.exec(text);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local runtime exited (${code}) before it was ready:\n${text}`));
    });
  });
  const apiKey = /API key \(shown only now\): (els_[A-Za-z0-9]+)/.exec(text)?.[1];

  const signalGroup = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      /* already gone */
    }
  };
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    signalGroup(name);
    await exited;
    await waitForGroupGone(child);
  };
  return {
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    output: () => text,
    kill: async (storeGraceMs = 250) => {
      child.kill('SIGKILL');
      await exited;
      await new Promise((resolve) => setTimeout(resolve, storeGraceMs));
      signalGroup('SIGKILL');
      await waitForGroupGone(child);
    },
    stop: () => signal('SIGTERM'),
  };
}

/** The Java child is in the same group; it is gone once signalling the group fails. */
async function waitForGroupGone(child: ChildProcess): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
