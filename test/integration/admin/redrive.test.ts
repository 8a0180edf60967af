import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeRuntimeDescriptor } from '../../../local/runtime-descriptor.js';
import { request } from '../support/api.js';
import { runAdmin } from '../support/admin-cli.js';
import { QUEUE_NAMES } from '../../../shared/platform.js';

/**
 * The local-only redrive route of the shared runtime, and the CLI finding that runtime by its API port. The shared
 * runtime writes no descriptor (npm start does): the test writes one for it in a temp folder the CLI is pointed at.
 */
let tmp: string;
let apiPort: number;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'admin-redrive-'));
  const baseUrl = inject('baseUrl');
  apiPort = Number(new URL(baseUrl).port);
  writeRuntimeDescriptor(
    {
      baseUrl,
      port: apiPort,
      dynamoEndpoint: inject('dynamoEndpoint'),
      sesUrl: inject('sesUrl'),
      tableName: inject('tableName'),
    },
    join(tmp, `email-lifecycle-${userInfo().uid}`),
  );
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('POST /dev/queues/{queue}/redrive (local runtime only)', () => {
  it.each(['events', 'workflow', 'ses-status'])(
    'answers 200 with the count it moved back to the %s queue',
    async (queue) => {
      // Act
      const res = await request('POST', `/dev/queues/${queue}/redrive`);

      // Assess: the run has no dead letters unless FAULTS made some, so only the count's kind is certain.
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ queue, moved: expect.any(Number) });
      expect(Number.isInteger(res.body.data.moved) && res.body.data.moved >= 0).toBe(true);
    },
  );

  it('answers 422 for a queue that does not exist', async () => {
    // Act
    const res = await request('POST', '/dev/queues/dead-letters/redrive');

    // Assess
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ condition: 'enum', key: 'queue', error: expect.any(String) }]);
  });

  it('is not in the OpenAPI document, as it is not on AWS', async () => {
    // Act
    const res = await fetch(`${inject('baseUrl')}/openapi.json`);

    // Assess
    const document = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.includes('/dev/'))).toEqual([]);
  });
});

// Each case starts the CLI (tsx): seconds apiece on a busy 2-core machine.
describe('npm run admin -- redrive (local)', { timeout: 60_000 }, () => {
  it('reaches the npm start on the API port it is given and prints what it moved', async () => {
    // Act
    const run = await runAdmin(['redrive', '--queue', 'workflow', '--port', String(apiPort)], { TMPDIR: tmp });

    // Assess
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([{ queue: 'workflow', moved: expect.any(Number) }]);
    expect(run.stderr).toContain(`admin: using the npm start on port ${apiPort} (pid ${process.pid})`);
  });

  it.each([
    { args: ['redrive', '--queue', 'mail'], error: `--queue must be one of ${QUEUE_NAMES.join(', ')}` },
    {
      args: ['redrive', '--queue', 'events', '--aws'],
      error: "--aws redrive needs the events queue's URL: --queue-url URL or EVENTS_QUEUE_URL",
    },
  ])('refuses $args with usage exit 2', async ({ args, error }) => {
    // Act
    const run = await runAdmin([...args, '--port', String(apiPort)], { TMPDIR: tmp });

    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(error);
    expect(run.lines).toEqual([]);
  });

  it('refuses an API port no npm start serves, naming it', async () => {
    // Act
    const run = await runAdmin(['redrive', '--queue', 'events', '--port', '1'], { TMPDIR: tmp });

    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no `npm start` is running on API port 1');
  });
});
