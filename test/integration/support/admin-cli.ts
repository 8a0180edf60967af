import { spawn } from 'node:child_process';

/** What `npm run admin` printed, one JSON value per stdout line, and how it ended. */
export interface AdminRun {
  code: number | null;
  lines: Record<string, unknown>[];
  stderr: string;
}

/** Variables that would point the CLI at another store, runtime or lease than the test names. */
const TARGETING = [
  'PORT',
  'DYNAMODB_PORT',
  'AWS_ENDPOINT_URL_DYNAMODB',
  'TABLE_NAME',
  'ADMIN_TARGET',
  'EXECUTION_LEASE_SECONDS',
  'OUTBOX_SWEEP_AFTER_SECONDS',
];

/** `npm run admin -- <args>` as a user runs it (tsx scripts/admin.ts), in a process of its own. */
export function runAdmin(args: string[], env: Record<string, string>): Promise<AdminRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of TARGETING) delete childEnv[name];
  return new Promise((resolve, reject) => {
    const child = spawn('node_modules/.bin/tsx', ['scripts/admin.ts', ...args], {
      env: { ...childEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      const lines = stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ code, lines, stderr });
    });
  });
}
