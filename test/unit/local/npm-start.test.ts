import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptorPath } from '../../../local/runtime-descriptor.js';

/**
 * `npm start` as a user runs it (tsx local/start.ts, a real DynamoDB Local and SES), on ports other than the
 * defaults, and the scripts that look for it by its API port.
 */
const TSX = 'node_modules/.bin/tsx';
const SLOW = 90_000;

/** The child's environment: none of the variables that would name a store or a log level for it. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'PORT',
    'DYNAMODB_PORT',
    'SES_PORT',
    'AWS_ENDPOINT_URL_DYNAMODB',
    'AWS_ENDPOINT_URL_SESV2',
    'TABLE_NAME',
    'POWERTOOLS_LOG_LEVEL',
    'ACCESS_LOG',
    'API_KEY',
    'DATA_DIR',
    'HOST',
  ]) {
    delete env[name];
  }
  return { ...env, ...extra };
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runScript(args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let runtime: ChildProcess;
let output = '';
let base = '';
let apiPort = 0;
let apiKey = '';

beforeAll(async () => {
  runtime = spawn(TSX, ['local/start.ts'], {
    env: cleanEnv({ PORT: '0', DYNAMODB_PORT: '0', SES_PORT: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runtime.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  runtime.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not get ready:\n${output}`)), SLOW - 5_000);
    const check = () => {
      const ready = /API ready at (http:\/\/\S+)/.exec(output);
      if (!ready?.[1]) return;
      clearTimeout(timer);
      runtime.stdout!.off('data', check);
      base = ready[1];
      apiPort = Number(new URL(base).port);
      apiKey = /API key \(shown only now\): (els_\w+)/.exec(output)?.[1] ?? '';
      resolve();
    };
    runtime.stdout!.on('data', check);
    runtime.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}, SLOW);

afterAll(async () => {
  if (runtime.exitCode !== null) return;
  const exited = new Promise((resolve) => runtime.once('exit', resolve));
  runtime.kill('SIGTERM');
  await exited;
}, SLOW);

describe('npm start on non-default ports', () => {
  it('prints no log line for requests that went well or were refused as they should be', async () => {
    // Prepare
    const printed = output.length;

    // Act
    const health = await fetch(`${base}/health`);
    const refused = await fetch(`${base}/client/contacts/1`);
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Assess
    expect([health.status, refused.status]).toEqual([200, 401]);
    expect(output.slice(printed)).toBe('');
  });

  it('lets npm run invoke find it by PORT and use its store, where the demo key works', { timeout: SLOW }, async () => {
    // Act
    const invoked = await runScript(
      ['scripts/invoke.ts', 'contacts-create', 'events-samples/contacts-create.json'],
      cleanEnv({
        PORT: String(apiPort),
        API_KEY: apiKey,
      }),
    );

    // Assess
    expect(invoked.stderr).toContain(`using the npm start on port ${apiPort}`);
    expect(JSON.parse(invoked.stdout)).toMatchObject({ statusCode: 201 });
    const stored = await fetch(`${base}/client/contacts/ada.lovelace%40example.com`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(stored.status).toBe(200);
  });

  it('lets npm run invoke find it by --port as well', { timeout: SLOW }, async () => {
    const invoked = await runScript(
      ['scripts/invoke.ts', 'contacts-create', 'events-samples/contacts-create.json', '--port', String(apiPort)],
      cleanEnv({ API_KEY: apiKey }),
    );
    // The contact the previous test created through the same store: the e-mail is taken.
    expect(JSON.parse(invoked.stdout)).toMatchObject({ statusCode: 409 });
  });

  it('lets npm run admin find it by --port', { timeout: SLOW }, async () => {
    const listed = await runScript(['scripts/admin.ts', 'list-clients', '--port', String(apiPort)], cleanEnv());
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('"email":"demo@example.com"');
  });

  it('lets npm run admin redrive its in-process dead letters, found by --port', { timeout: SLOW }, async () => {
    const redriven = await runScript(
      ['scripts/admin.ts', 'redrive', '--queue', 'events', '--port', String(apiPort)],
      cleanEnv(),
    );
    expect(redriven.code).toBe(0);
    expect(JSON.parse(redriven.stdout)).toEqual({ queue: 'events', moved: 0 });
    expect(redriven.stderr).toContain(`admin: using the npm start on port ${apiPort}`);
  });

  it('makes npm run invoke refuse a port no npm start serves, instead of using a private store', {
    timeout: SLOW,
  }, async () => {
    const invoked = await runScript(
      ['scripts/invoke.ts', 'health', 'events-samples/health.json', '--port', '1'],
      cleanEnv(),
    );
    expect(invoked.code).toBe(2);
    expect(invoked.stderr).toContain('no `npm start` is running on API port 1');
    expect(invoked.stderr).not.toContain('private');
  });

  it('removes its runtime descriptor when it stops', { timeout: SLOW }, async () => {
    expect(existsSync(descriptorPath(apiPort))).toBe(true);
    const exited = new Promise<number | null>((resolve) => runtime.once('exit', resolve));
    runtime.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(descriptorPath(apiPort))).toBe(false);
  });
});
